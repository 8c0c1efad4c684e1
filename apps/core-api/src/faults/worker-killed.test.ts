// Fault injection: a worker killed mid-job. A real job runner in a child process claims a job of the
// core queue and is killed with SIGKILL while running it (no stop, no release). Two runners of this
// process then poll the same queue: once the dead worker's lease has passed, the sweep puts the job back
// (onReclaimed), exactly one of them runs it to the end, and it is never run twice.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase, type TestDatabase } from '@story/testing';
import { createJobRunner, defineJob, type JobRunner } from '@story/jobs';

const ROOT = path.resolve(__dirname, '../../../..');

describe('fault: a worker killed mid-job (libs/jobs, core queue)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('the job is reclaimed after the lease and completes exactly once', async () => {
    const [job] = await database.sql<{ id: string }[]>`
      insert into jobs (queue, kind, payload, max_attempts) values ('core', 'fault.slow', '{"n": 7}'::jsonb, 5) returning id`;
    // node itself runs the runner (tsx as a loader, not its CLI wrapper), so SIGKILL hits the runner.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'test/job-child.ts'), database.url], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.base.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const running = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child runner did not start the job: ${stderr.slice(-500)}`)), 40_000);
      createInterface({ input: child.stdout }).on('line', (line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, unknown>);
      });
    });
    expect(running).toEqual({ event: 'running', jobId: job!.id });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const [held] = await database.sql`select status, attempts, locked_by, progress from jobs where id = ${job!.id}`;
    expect(held).toMatchObject({ status: 'running', attempts: 1, locked_by: `child:${child.pid}`, progress: { step: 'started', pid: child.pid } });

    const runs: string[] = [];
    const reclaimed: number[] = [];
    const makeRunner = (name: string): JobRunner =>
      createJobRunner({
        sql: database.sql,
        queue: 'core',
        workerId: name,
        jobs: [
          defineJob({
            kind: 'fault.slow',
            leaseSeconds: 30,
            parse: (p) => p as { n: number },
            onReclaimed: async (p) => void reclaimed.push(p.n),
            async run(ctx) {
              runs.push(`${name}:${ctx.payload.n}:attempt${ctx.attempt}`);
              await new Promise((r) => setTimeout(r, 200));
              return { doneBy: name };
            },
          }),
        ],
      });
    const runners = [makeRunner('survivor-a'), makeRunner('survivor-b')];
    // Both poll until the job is finished (the dead worker's 2 s lease must pass first).
    const deadline = Date.now() + 20_000;
    for (;;) {
      await Promise.all(runners.map((r) => r.runOnce()));
      const [row] = await database.sql`select status from jobs where id = ${job!.id}`;
      if (row!['status'] === 'succeeded' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const [done] = await database.sql`select status, attempts, locked_by, result from jobs where id = ${job!.id}`;
    expect(done!['status']).toBe('succeeded');
    // Claimed twice in all (the dead worker's attempt and the survivor's), run to the end once.
    expect(done!['attempts']).toBe(2);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^survivor-[ab]:7:attempt2$/);
    expect(done!['result']).toEqual({ doneBy: runs[0]!.split(':')[0] });
    expect(reclaimed).toEqual([7]);
    // More rounds change nothing: it is not run again.
    await Promise.all(runners.map((r) => r.runOnce()));
    expect(runs).toHaveLength(1);
  }, 60_000);
});
