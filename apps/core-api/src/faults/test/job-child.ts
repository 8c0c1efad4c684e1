// A job runner in its own process, for the worker-killed fault test: it claims the `fault.slow` job of
// the core queue with a 2 s lease, says so on stdout, records progress once, then works "forever" until
// the test kills it with SIGKILL (no stop(), no release: the lease is all that is left behind).
// Usage: tsx job-child.ts <databaseUrl>
import { createDbClient } from '@story/db';
import { createJobRunner, defineJob } from '@story/jobs';

const database = createDbClient(process.argv[2] ?? '', { max: 2 });
const runner = createJobRunner({
  sql: database.sql,
  queue: 'core',
  workerId: `child:${process.pid}`,
  jobs: [
    defineJob({
      kind: 'fault.slow',
      leaseSeconds: 2,
      parse: (p) => p as { n: number },
      async run(ctx) {
        await ctx.progress({ step: 'started', pid: process.pid });
        process.stdout.write(`${JSON.stringify({ event: 'running', jobId: ctx.id })}\n`);
        await new Promise(() => undefined);
      },
    }),
  ],
});
void runner.runOnce();
