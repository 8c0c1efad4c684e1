// Queue bench: BENCH_EMAILS (default 10,000) queued emails sent by the email-service worker to a local SMTP
// sink, with 1 and with 4 worker processes, against raw pooled nodemailer to the same sink in the same run.
// Target: throughput ≥ 50% of the baseline, zero duplicates, zero lost. See bench/email/README.md.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import postgres from 'postgres';
import type { Cleanup } from '../lib/cleanup';
import { groupCpuMs } from '../lib/cpu';
import { ROOT } from '../lib/processes';
import { writeJson } from '../lib/report';
import { prepareEmailDatabase, runBench, say, table } from './common';

const TSX_CLI = require.resolve('tsx/cli');
const CONCURRENCY = 5;
const BATCH = 50;

interface Child {
  child: ChildProcess;
  /** Resolves with the next stdout line. */
  nextLine(): Promise<string>;
  stop(): Promise<void>;
}

function startChild(name: string, script: string, env: Record<string, string>, cleanup: Cleanup): Child {
  const child = spawn(process.execPath, [TSX_CLI, '--tsconfig', 'tsconfig.base.json', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const w = waiters.shift();
    if (w) w(line);
    else lines.push(line);
  });
  readline.createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const l = lines.shift();
      if (l !== undefined) return resolve(l);
      if (exited) return reject(new Error(`${name} exited`));
      waiters.push(resolve);
      void exit.then(() => reject(new Error(`${name} exited before answering`)));
    });
  const stop = async () => {
    if (exited || child.pid === undefined) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, 10_000);
    await exit;
    clearTimeout(t);
  };
  cleanup.add(`stop ${name}`, stop);
  return { child, nextLine, stop };
}

async function sinkGet<T>(base: string, path: string, method = 'GET'): Promise<T> {
  const res = await fetch(`${base}${path}`, { method });
  return (await res.json()) as T;
}

interface SinkStats {
  received: number;
  distinct: number;
  duplicates: number;
  withoutId: number;
}

/** Start the senders, wait until all are ready, say go to all at once, wall time until the last answers. */
/** CPU ms of the senders (all processes) and of the sink over the run, from /proc (NaN where there is none). */
interface RunCpu {
  sendersMs: number;
  sinkMs: number;
}

async function runSenders(name: string, envs: Record<string, string>[], cleanup: Cleanup, sinkUrl: string, sinkPid: number | undefined): Promise<{ ms: number; results: Record<string, number>[]; cpu: RunCpu }> {
  const children = envs.map((env, i) => startChild(`${name}-${i + 1}`, 'bench/email/sender.ts', env, cleanup));
  for (const c of children) {
    const line = await c.nextLine();
    if (line !== 'ready') throw new Error(`${name}: expected ready, got ${line}`);
  }
  // The senders' warm-up messages reached the sink before "ready": count only the measured run.
  await sinkGet(sinkUrl, '/reset', 'POST');
  const sink = () => (sinkPid === undefined ? Number.NaN : groupCpuMs(sinkPid));
  const sink0 = sink();
  const started = performance.now();
  for (const c of children) c.child.stdin!.write('go\n');
  const results = await Promise.all(children.map(async (c) => JSON.parse(await c.nextLine()) as Record<string, number>));
  const ms = performance.now() - started;
  // Each sender reports its own CPU from go to its answer (process.cpuUsage): it may exit right after.
  const cpu = { sendersMs: results.reduce((sum, r) => sum + (r['cpuMs'] ?? Number.NaN), 0), sinkMs: sink() - sink0 };
  await Promise.all(children.map((c) => c.stop()));
  return { ms, results, cpu };
}

interface Row {
  target: string;
  msgsPerSec: number;
  ms: number;
  received: number;
  duplicates: number;
  lost: number;
  sentRows: number | null;
  failed: string[];
  /** CPU µs per email of the sending processes and of the SMTP sink. */
  cpuUsPerEmail: { senders: number; sink: number };
}

async function main(cleanup: Cleanup): Promise<number> {
  const n = Number(process.env['BENCH_EMAILS'] ?? 10_000);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`BENCH_EMAILS="${process.env['BENCH_EMAILS']}": must be a positive integer`);
  const db = await prepareEmailDatabase(cleanup);
  say(`database ${db.name} on ${db.server} (migrated)`);
  const sql = postgres(db.url, { max: 2, onnotice: () => undefined });
  cleanup.add('close bench connection', () => sql.end({ timeout: 5 }));

  const sink = startChild('sink', 'bench/email/sink.ts', {}, cleanup);
  const { smtpPort, httpPort } = JSON.parse(await sink.nextLine()) as { smtpPort: number; httpPort: number };
  const sinkUrl = `http://127.0.0.1:${httpPort}`;
  const smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  say(`SMTP sink (own process) on ${smtpUrl}; ${n} emails per run; concurrency ${CONCURRENCY} per sender, batch ${BATCH}`);

  const rows: Row[] = [];

  // Baseline: raw pooled nodemailer, 5 connections, CONCURRENCY messages in flight.
  await sinkGet(sinkUrl, '/reset', 'POST');
  const base = await runSenders('baseline', [{ BENCH_MODE: 'baseline', BENCH_SMTP_URL: smtpUrl, BENCH_COUNT: String(n), BENCH_CONCURRENCY: String(CONCURRENCY) }], cleanup, sinkUrl, sink.child.pid);
  const baseStats = await sinkGet<SinkStats>(sinkUrl, '/stats');
  const baseRate = (n / base.ms) * 1000;
  rows.push({ target: 'baseline: raw pooled nodemailer (1 process, 5 conns)', msgsPerSec: baseRate, ms: base.ms, received: baseStats.received, duplicates: baseStats.duplicates, lost: n - baseStats.distinct, sentRows: null, failed: [], cpuUsPerEmail: { senders: (base.cpu.sendersMs * 1000) / n, sink: (base.cpu.sinkMs * 1000) / n } });
  say(`baseline: ${baseRate.toFixed(0)} msgs/s (${base.ms.toFixed(0)} ms)`);

  for (const workers of [1, 4]) {
    cleanup.assertRunning();
    await sql`delete from email_send_queue`;
    await sql`insert into email_send_queue (to_email, subject, html_content, text_content, category, scheduled_for)
      select 'user' || i || '@example.test', 'A subject', '<p>Body</p>', 'Body', 'transactional', now() - interval '1 minute'
      from generate_series(1, ${n}) i`;
    await sql`vacuum analyze email_send_queue`;
    await sinkGet(sinkUrl, '/reset', 'POST');
    const envs = Array.from({ length: workers }, (_, i) => ({
      BENCH_MODE: 'worker',
      BENCH_SMTP_URL: smtpUrl,
      BENCH_DATABASE: db.url,
      BENCH_WORKER_ID: `bench-w${workers}-${i + 1}`,
      BENCH_CONCURRENCY: String(CONCURRENCY),
      BENCH_BATCH: String(BATCH),
    }));
    const run = await runSenders(`worker${workers}`, envs, cleanup, sinkUrl, sink.child.pid);
    const stats = await sinkGet<SinkStats>(sinkUrl, '/stats');
    const ids = new Set(await sinkGet<string[]>(sinkUrl, '/ids'));
    const queue = await sql<{ id: string; status: string }[]>`select id, status from email_send_queue`;
    const sentRows = queue.filter((r) => r.status === 'sent').length;
    const lost = queue.filter((r) => !ids.has(`<${r.id}@stories.example>`)).length;
    const foreign = [...ids].filter((id) => !queue.some((r) => `<${r.id}@stories.example>` === id)).length;
    const rate = (n / run.ms) * 1000;
    const totals = run.results.reduce((a, r) => ({ sent: a.sent + (r['sent'] ?? 0), failed: a.failed + (r['failed'] ?? 0), retried: a.retried + (r['retried'] ?? 0), skipped: a.skipped + (r['skipped'] ?? 0) }), { sent: 0, failed: 0, retried: 0, skipped: 0 });
    const failed: string[] = [];
    if (totals.failed || totals.retried || totals.skipped) failed.push(`worker results: failed ${totals.failed}, retried ${totals.retried}, skipped ${totals.skipped}`);
    if (foreign) failed.push(`${foreign} Message-IDs at the sink match no queue row`);
    if (stats.withoutId) failed.push(`${stats.withoutId} messages without Message-ID`);
    say(`${workers} worker(s): ${rate.toFixed(0)} msgs/s (${run.ms.toFixed(0)} ms), per worker sent ${run.results.map((r) => r['sent']).join('/')}`);
    rows.push({ target: `email-queue worker × ${workers} (${workers === 1 ? '1 process' : `${workers} processes`})`, msgsPerSec: rate, ms: run.ms, received: stats.received, duplicates: stats.duplicates, lost, sentRows, failed, cpuUsPerEmail: { senders: (run.cpu.sendersMs * 1000) / n, sink: (run.cpu.sinkMs * 1000) / n } });
  }

  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISSED');
  const out = [['target', 'msgs/s', 'time', 'received', 'dupes', 'lost', "rows 'sent'", 'vs baseline', '≥50%', 'dupes 0', 'lost 0']];
  for (const r of rows) {
    const isBase = r.sentRows === null;
    out.push([
      r.target,
      r.msgsPerSec.toFixed(0),
      `${(r.ms / 1000).toFixed(2)} s`,
      String(r.received),
      String(r.duplicates),
      String(r.lost),
      isBase ? '-' : `${r.sentRows}/${n}`,
      isBase ? '100%' : `${((r.msgsPerSec / baseRate) * 100).toFixed(0)}%`,
      isBase ? '-' : verdict(r.msgsPerSec >= baseRate * 0.5),
      isBase ? '-' : verdict(r.duplicates === 0),
      isBase ? '-' : verdict(r.lost === 0 && r.received === n && r.sentRows === n),
    ]);
  }
  process.stdout.write(`\nemail queue bench: ${n} emails, SMTP sink in its own process, ${db.server}\n\n${table(out)}\n`);
  process.stdout.write(
    `\n(info) CPU per email, from /proc (PostgreSQL not included): ${rows.map((r) => `${r.target}: senders ${r.cpuUsPerEmail.senders.toFixed(0)} µs, sink ${r.cpuUsPerEmail.sink.toFixed(0)} µs`).join('; ')}\n`,
  );
  const problems = rows.flatMap((r) => r.failed.map((f) => `${r.target}: ${f}`));
  if (problems.length) process.stdout.write(`\nproblems:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  const goals: Record<number, number> = { 1: 0.5, 4: 0.7 };
  const checks = rows
    .filter((r) => r.sentRows !== null)
    .map((r, i) => {
      const workers = i === 0 ? 1 : 4;
      const ratio = r.msgsPerSec / baseRate;
      return { name: `${r.target} vs raw pooled nodemailer`, target: `>= ${(goals[workers]! * 100).toFixed(0)}%, none lost or duplicated`, actual: `${(ratio * 100).toFixed(0)}% (${r.msgsPerSec.toFixed(0)} vs ${baseRate.toFixed(0)} msgs/s), lost ${r.lost}, dupes ${r.duplicates}`, met: ratio >= goals[workers]! && r.lost === 0 && r.duplicates === 0 && r.failed.length === 0 };
    });
  writeJson(path.join(ROOT, 'bench', 'results', 'email-queue.json'), { finishedAt: new Date().toISOString(), emails: n, database: db.server, rows, checks, problems });
  return 0;
}

runBench(main);
