// The job runner against a real PostgreSQL database: claims, idempotency keys, retries with backoff, the
// dead state, permanent failures, progress with lease extension, the stuck-job sweep, recurring jobs,
// graceful stop, and two runners sharing one queue without running a job twice.
import { createTestDatabase, type TestDatabase } from '@story/db/testing';
import { createJobRunner, defineJob, PermanentJobError, StuckJobError, type JobDefinition } from './index';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

let queueCounter = 0;
const freshQueue = () => `test-${++queueCounter}`;

const parseNumbered = (p: unknown) => {
  const n = (p as { n?: unknown }).n;
  if (typeof n !== 'number') throw new Error('n must be a number');
  return { n };
};

const row = async (id: string) =>
  (await t.sql<{ status: string; attempts: number; run_at: string; last_error: string | null; progress: Record<string, unknown> | null; result: Record<string, unknown> | null }[]>`
    select status, attempts, run_at::text, last_error, progress, result from jobs where id = ${id}`)[0]!;

const makeDue = (id: string) => t.sql`update jobs set run_at = now() - interval '1 second' where id = ${id}`;

it('runs an enqueued job once and records its result', async () => {
  const seen: number[] = [];
  const runner = createJobRunner({ sql: t.sql, queue: freshQueue(), jobs: [defineJob({ kind: 'double', parse: parseNumbered, run: async ({ payload }) => ({ doubled: seen.push(payload.n) && payload.n * 2 }) })] });
  const { id, created } = await runner.enqueue('double', { n: 21 });
  expect(created).toBe(true);
  expect(await runner.drain()).toBe(1);
  expect(seen).toEqual([21]);
  expect(await row(id)).toMatchObject({ status: 'succeeded', attempts: 1, result: { doubled: 42 } });
  expect(await runner.runOnce()).toBe(0);
});

it('refuses an unknown kind and a payload its kind does not accept, before writing anything', async () => {
  const queue = freshQueue();
  const runner = createJobRunner({ sql: t.sql, queue, jobs: [defineJob({ kind: 'a', parse: parseNumbered, run: async () => undefined })] });
  await expect(runner.enqueue('b', { n: 1 })).rejects.toThrow(/unknown job kind/);
  await expect(runner.enqueue('a', { n: 'x' })).rejects.toThrow(/n must be a number/);
  expect((await t.sql`select id from jobs where queue = ${queue}`).length).toBe(0);
});

it('an idempotency key returns the active job instead of adding one, and is free again once it ended', async () => {
  const runner = createJobRunner({ sql: t.sql, queue: freshQueue(), jobs: [defineJob({ kind: 'once', parse: parseNumbered, run: async () => undefined })] });
  const key = `archive:${Date.now()}`;
  const first = await runner.enqueue('once', { n: 1 }, { dedupeKey: key });
  const second = await runner.enqueue('once', { n: 2 }, { dedupeKey: key });
  expect(second).toEqual({ id: first.id, created: false });
  await runner.drain();
  const third = await runner.enqueue('once', { n: 3 }, { dedupeKey: key });
  expect(third.created).toBe(true);
  expect(third.id).not.toBe(first.id);
});

it('retries a failure after a backoff, then succeeds; onRetry hears of the failed attempt', async () => {
  let calls = 0;
  const retried: string[] = [];
  const runner = createJobRunner({
    sql: t.sql,
    queue: freshQueue(),
    jobs: [
      defineJob({
        kind: 'flaky',
        parse: parseNumbered,
        onRetry: async (_p, err) => void retried.push((err as Error).message),
        run: async () => {
          calls += 1;
          if (calls === 1) throw new Error('provider timed out');
          return { ok: true };
        },
      }),
    ],
  });
  const { id } = await runner.enqueue('flaky', { n: 1 });
  await runner.drain();
  const afterFirst = await row(id);
  expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1, last_error: 'provider timed out' });
  // Backoff: not due again for about 5 s, so another round takes nothing.
  expect(new Date(afterFirst.run_at).getTime()).toBeGreaterThan(Date.now() + 3000);
  expect(await runner.runOnce()).toBe(0);
  expect(retried).toEqual(['provider timed out']);
  await makeDue(id);
  await runner.drain();
  expect(await row(id)).toMatchObject({ status: 'succeeded', attempts: 2 });
});

it('a job out of attempts is dead, and onGiveUp runs exactly once', async () => {
  const gaveUp: string[] = [];
  const runner = createJobRunner({
    sql: t.sql,
    queue: freshQueue(),
    jobs: [defineJob({ kind: 'broken', parse: parseNumbered, maxAttempts: 2, onGiveUp: async (_p, e) => void gaveUp.push((e as Error).message), run: async () => Promise.reject(new Error('still broken')) })],
  });
  const { id } = await runner.enqueue('broken', { n: 1 });
  await runner.drain();
  await makeDue(id);
  await runner.drain();
  expect(await row(id)).toMatchObject({ status: 'dead', attempts: 2 });
  expect(gaveUp).toEqual(['still broken']);
});

it('a PermanentJobError or a bad stored payload ends the job as failed without retrying', async () => {
  const queue = freshQueue();
  const gaveUp: string[] = [];
  const runner = createJobRunner({
    sql: t.sql,
    queue,
    jobs: [defineJob({ kind: 'refuse', parse: parseNumbered, onGiveUp: async (_p, e) => void gaveUp.push((e as Error).message), run: async () => Promise.reject(new PermanentJobError('file is over the 50 MB limit')) })],
  });
  const { id } = await runner.enqueue('refuse', { n: 1 });
  await runner.drain();
  expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1 });
  expect(gaveUp).toEqual(['file is over the 50 MB limit']);

  const [bad] = await t.sql<{ id: string }[]>`insert into jobs (queue, kind, payload) values (${queue}, 'refuse', '{"n":"seven"}'::jsonb) returning id`;
  await runner.drain();
  expect(await row(bad!.id)).toMatchObject({ status: 'failed', last_error: expect.stringContaining('invalid payload') });
});

it('progress is recorded on the job and pushes its lease out', async () => {
  let seenDuringRun: Record<string, unknown> | null = null;
  let leaseDuringRun = '';
  const runner = createJobRunner({
    sql: t.sql,
    queue: freshQueue(),
    leaseSeconds: 2,
    jobs: [
      defineJob({
        kind: 'long',
        parse: parseNumbered,
        leaseSeconds: 600,
        run: async (ctx) => {
          await ctx.progress({ done: 1, total: 2 });
          const [r] = await t.sql<{ progress: Record<string, unknown>; lease: string }[]>`select progress, lease_expires_at::text as lease from jobs where id = ${ctx.id}`;
          seenDuringRun = r!.progress;
          leaseDuringRun = r!.lease;
        },
      }),
    ],
  });
  const { id } = await runner.enqueue('long', { n: 1 });
  await runner.drain();
  expect(seenDuringRun).toEqual({ done: 1, total: 2 });
  expect(new Date(leaseDuringRun).getTime()).toBeGreaterThan(Date.now() + 500_000);
  expect(await row(id)).toMatchObject({ status: 'succeeded', progress: { done: 1, total: 2 } });
});

it('a job waiting in a claimed batch starts with its whole lease, and is not run again once another worker took it over', async () => {
  const queue = freshQueue();
  const runs: { who: string; id: string }[] = [];
  const ids: string[] = [];
  let takenOver = '';
  let nearlyLapsed = '';
  let leaseAtStart = 0;
  const defFor = (who: string, whileFirstRuns?: (running: string) => Promise<void>) =>
    defineJob({
      kind: 'slow',
      parse: parseNumbered,
      leaseSeconds: 30,
      run: async ({ id }) => {
        runs.push({ who, id });
        if (id === nearlyLapsed) {
          const [r] = await t.sql<{ left: number }[]>`select extract(epoch from lease_expires_at - now())::float8 as left from jobs where id = ${id}`;
          leaseAtStart = r!.left;
        }
        if (runs.length === 1) await whileFirstRuns?.(id);
      },
    });
  const b = createJobRunner({ sql: t.sql, queue, workerId: 'worker-b', jobs: [defFor('b')] });
  const a = createJobRunner({
    sql: t.sql,
    queue,
    workerId: 'worker-a',
    batchSize: 3,
    jobs: [
      defFor('a', async (running) => {
        // While worker A runs its first job, the other two wait in its batch. One's lease passes and the sweep
        // of worker B takes it over and runs it; the other's lease is about to pass when its turn comes.
        [takenOver, nearlyLapsed] = ids.filter((id) => id !== running) as [string, string];
        await t.sql`update jobs set lease_expires_at = now() - interval '1 second' where id = ${takenOver}`;
        expect(await b.runOnce()).toBe(1);
        await t.sql`update jobs set lease_expires_at = now() + interval '1 second' where id = ${nearlyLapsed}`;
      }),
    ],
  });
  for (let n = 1; n <= 3; n += 1) ids.push((await a.enqueue('slow', { n })).id);
  expect(await a.runOnce()).toBe(3);
  expect(runs.slice(1)).toEqual([
    { who: 'b', id: takenOver },
    { who: 'a', id: nearlyLapsed },
  ]);
  expect(await row(takenOver)).toMatchObject({ status: 'succeeded', attempts: 2 });
  expect(leaseAtStart).toBeGreaterThan(20);
});

it('the sweep takes over a job whose worker died, and gives up on one that keeps dying', async () => {
  const queue = freshQueue();
  const reclaimed: number[] = [];
  const gaveUp: number[] = [];
  const ran: number[] = [];
  const def: JobDefinition<{ n: number }> = defineJob({
    kind: 'fragile',
    parse: parseNumbered,
    maxAttempts: 2,
    onReclaimed: async (p) => void reclaimed.push(p.n),
    onGiveUp: async (p, e) => void gaveUp.push(e instanceof StuckJobError ? p.n : -1),
    run: async ({ payload }) => void ran.push(payload.n),
  });
  const runner = createJobRunner({ sql: t.sql, queue, jobs: [def] });
  const { id } = await runner.enqueue('fragile', { n: 7 });
  // A worker claims it and dies: its lease passes with the job still running.
  const dying = createJobRunner({ sql: t.sql, queue, jobs: [def], workerId: 'dead-worker' });
  expect(await dying.queue.claim('dead-worker', 1, 60)).toHaveLength(1);
  await t.sql`update jobs set lease_expires_at = now() - interval '1 second' where id = ${id}`;
  await runner.drain();
  expect(reclaimed).toEqual([7]);
  expect(ran).toEqual([7]);
  expect(await row(id)).toMatchObject({ status: 'succeeded', attempts: 2 });

  // Out of attempts when its last worker dies: dead, and onGiveUp, not another run.
  const second = await runner.enqueue('fragile', { n: 8 }, { maxAttempts: 1 });
  expect(await dying.queue.claim('dead-worker', 1, 60)).toHaveLength(1);
  await t.sql`update jobs set lease_expires_at = now() - interval '1 second' where id = ${second.id}`;
  await runner.drain();
  expect(await row(second.id)).toMatchObject({ status: 'dead', attempts: 1 });
  expect(gaveUp).toEqual([8]);
  expect(ran).toEqual([7]);
});

it('two runners on one queue run each of 30 jobs exactly once', async () => {
  const queue = freshQueue();
  const runs = new Map<number, number>();
  const def = defineJob({
    kind: 'count',
    parse: parseNumbered,
    run: async ({ payload }) => {
      runs.set(payload.n, (runs.get(payload.n) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 2));
    },
  });
  const a = createJobRunner({ sql: t.sql, queue, jobs: [def], batchSize: 3 });
  const b = createJobRunner({ sql: t.sql, queue, jobs: [def], batchSize: 3 });
  for (let n = 0; n < 30; n += 1) await a.enqueue('count', { n });
  await Promise.all([a.drain(), b.drain()]);
  expect(runs.size).toBe(30);
  expect([...runs.values()].every((v) => v === 1)).toBe(true);
});

it('claims only the kinds it defines', async () => {
  const queue = freshQueue();
  const onlyA = createJobRunner({ sql: t.sql, queue, jobs: [defineJob({ kind: 'a', parse: parseNumbered, run: async () => undefined })] });
  const onlyB = createJobRunner({ sql: t.sql, queue, jobs: [defineJob({ kind: 'b', parse: parseNumbered, run: async () => undefined })] });
  const b = await onlyB.enqueue('b', { n: 1 });
  expect(await onlyA.drain()).toBe(0);
  expect(await row(b.id)).toMatchObject({ status: 'queued', attempts: 0 });
});

it('keeps one recurring job queued, the next due after its interval', async () => {
  const queue = freshQueue();
  let runs = 0;
  const runner = createJobRunner({ sql: t.sql, queue, jobs: [defineJob({ kind: 'sweep', parse: () => ({}), everySeconds: 3600, run: async () => void (runs += 1) })] });
  await runner.drain();
  expect(runs).toBe(1);
  const queued = await t.sql<{ run_at: string }[]>`select run_at::text from jobs where queue = ${queue} and status = 'queued'`;
  expect(queued).toHaveLength(1);
  expect(new Date(queued[0]!.run_at).getTime()).toBeGreaterThan(Date.now() + 3500_000);
  // A second runner (another replica) starting up adds no second copy.
  const replica = createJobRunner({ sql: t.sql, queue, jobs: [defineJob({ kind: 'sweep', parse: () => ({}), everySeconds: 3600, run: async () => undefined })] });
  await replica.runOnce();
  expect(await t.sql`select id from jobs where queue = ${queue} and status = 'queued'`).toHaveLength(1);
});

it('writes a recurring job\'s next run in the same transaction as its end, so two runners starting together run it once', async () => {
  for (let round = 0; round < 3; round += 1) {
    const queue = freshQueue();
    let runs = 0;
    const def = defineJob({ kind: 'sweep', parse: () => ({}), everySeconds: 3600, run: async () => void (runs += 1) });
    const a = createJobRunner({ sql: t.sql, queue, jobs: [def] });
    const b = createJobRunner({ sql: t.sql, queue, jobs: [def] });
    await Promise.all([a.drain(), b.drain()]);
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(runs).toBe(1);
    // The finished run and the queued next one carry one transaction id: no instant between them in which
    // a starting runner would find the job neither active nor scheduled and seed a second, immediate run.
    const rows = await t.sql<{ status: string; xmin: string }[]>`select status, xmin::text as xmin from jobs where queue = ${queue} order by created_at`;
    expect(rows.map((r) => r.status)).toEqual(['succeeded', 'queued']);
    expect(rows[0]!.xmin).toBe(rows[1]!.xmin);
  }
});

it('stop() aborts a running handler and hands its job back without spending an attempt', async () => {
  const queue = freshQueue();
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const runner = createJobRunner({
    sql: t.sql,
    queue,
    jobs: [
      defineJob({
        kind: 'slow',
        parse: parseNumbered,
        run: ({ signal }) =>
          new Promise((_resolve, reject) => {
            started();
            signal.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      }),
    ],
  });
  const { id } = await runner.enqueue('slow', { n: 1 });
  runner.start(50);
  await running;
  await runner.stop();
  expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0 });
});

it('feature areas add their kinds with define(), each once', async () => {
  const runner = createJobRunner({ sql: t.sql, queue: freshQueue() });
  expect(await runner.runOnce()).toBe(0);
  const ran: number[] = [];
  runner.define(defineJob({ kind: 'late', parse: parseNumbered, run: async ({ payload }) => void ran.push(payload.n) }));
  expect(() => runner.define(defineJob({ kind: 'late', parse: parseNumbered, run: async () => undefined }))).toThrow(/defined twice/);
  await runner.enqueue('late', { n: 5 });
  await runner.drain();
  expect(ran).toEqual([5]);
});
