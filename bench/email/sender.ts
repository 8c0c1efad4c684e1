// One sending process of the queue bench, started by queue.ts. BENCH_MODE=baseline sends BENCH_COUNT messages
// with raw pooled nodemailer; BENCH_MODE=worker runs one createEmailQueueWorker, looping processBatch until it
// claims nothing. Protocol: "ready" on stdout once set up, waits for "go" on stdin, then one JSON result line.
import readline from 'node:readline';
import { createTransport } from 'nodemailer';
import { createDbClient } from '@story/db';
import { createEmailDelivery } from '@story/providers';
import { createEmailQueueWorker, type BatchResult } from '../../apps/email-service/src/workers/email-queue.worker';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};

const FROM = 'Family Stories <noreply@stories.example>';
const SMTP_URL = env('BENCH_SMTP_URL');
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 5);
const BATCH = Number(process.env['BENCH_BATCH'] ?? 50);

/** CPU (user + system) this process used since `from`, ms. */
const cpuMsSince = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

/**
 * WARM_UP messages (untimed, before "ready") through the same sender, CONCURRENCY at a time: the measured run
 * is the steady state of a long-running process, as the HTTP benches measure after a warm-up. Without it,
 * every process compiled the MIME and SMTP code inside the timed run (four workers paid it four times).
 */
const WARM_UP = Number(process.env['BENCH_WARM_UP'] ?? 300);
async function warmUp(send: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < WARM_UP) await send(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

const waitForGo = () =>
  new Promise<void>((resolve) => {
    const rl = readline.createInterface({ input: process.stdin });
    rl.on('line', (line) => {
      if (line.trim() === 'go') {
        rl.close();
        resolve();
      }
    });
  });

async function baseline(): Promise<void> {
  const count = Number(env('BENCH_COUNT'));
  const { hostname, port } = new URL(SMTP_URL);
  const transporter = createTransport({ host: hostname, port: Number(port), pool: true, maxConnections: 5, ignoreTLS: true });
  await warmUp((i) => transporter.sendMail({ from: FROM, to: `warmup${i}@example.test`, subject: 'Warm-up', html: '<p>Body</p>', text: 'Body', messageId: `<warmup-${i}@stories.example>` }));
  process.stdout.write('ready\n');
  await waitForGo();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  let errors = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      try {
        await transporter.sendMail({
          from: FROM,
          to: `user${i}@example.test`,
          subject: 'A subject',
          html: '<p>Body</p>',
          text: 'Body',
          messageId: `<baseline-${i}@stories.example>`,
          headers: { 'X-Entity-Ref-ID': `baseline-${i}` },
        });
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const ms = performance.now() - started;
  transporter.close();
  process.stdout.write(`${JSON.stringify({ ms, sent: count - errors, errors, cpuMs: cpuMsSince(cpu0) })}\n`);
}

async function worker(): Promise<void> {
  const client = createDbClient(env('BENCH_DATABASE'), { max: 10, applicationName: 'bench-email-worker' });
  const delivery = createEmailDelivery({ driver: 'smtp', smtpUrl: SMTP_URL, from: FROM }, { ignoreTLS: true });
  const w = createEmailQueueWorker({
    db: client.db,
    sql: client.sql,
    delivery,
    from: FROM,
    batchSize: BATCH,
    maxAttempts: 3,
    leaseSeconds: 120,
    workerId: env('BENCH_WORKER_ID'),
    concurrency: CONCURRENCY,
    unsubscribe: { baseUrl: 'https://stories.example', secret: 'bench-unsubscribe-secret-0123456789abcdef' },
    log: { info: () => undefined, warn: (o, m) => process.stderr.write(`warn ${m} ${JSON.stringify(o)}\n`), error: (o, m) => process.stderr.write(`error ${m} ${JSON.stringify(o)}\n`) },
  });
  await client.sql`select 1`;
  await warmUp((i) => delivery.send({ from: FROM, to: `warmup${i}@example.test`, subject: 'Warm-up', html: '<p>Body</p>', text: 'Body', messageId: `<warmup-${i}@stories.example>` }));
  process.stdout.write('ready\n');
  await waitForGo();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const total: BatchResult = { claimed: 0, sent: 0, failed: 0, retried: 0, skipped: 0 };
  let batches = 0;
  for (;;) {
    const r = await w.processBatch();
    if (r.claimed === 0) break;
    batches += 1;
    for (const k of Object.keys(total) as (keyof BatchResult)[]) total[k] += r[k];
  }
  const ms = performance.now() - started;
  await w.stop();
  await delivery.close();
  await client.close();
  process.stdout.write(`${JSON.stringify({ ms, batches, ...total, cpuMs: cpuMsSince(cpu0) })}\n`);
}

(process.env['BENCH_MODE'] === 'baseline' ? baseline() : worker()).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
