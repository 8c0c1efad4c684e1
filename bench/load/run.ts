// `npm run bench:load`: the three services as deployed (esbuild bundles, each its own
// process) on real PostgreSQL, driven for BENCH_LOAD_SECONDS (default 60) by BENCH_LOAD_CONNECTIONS (default
// 50) virtual users through a realistic mix (sign-in, stories list, memories paging, small recording uploads,
// story conversion with the offline model, tools generate / browse / search, signed delivery webhooks). Then
// the database is checked against every write the users made. See bench/load/README.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundleServices } from '../../tools/bundle';
import { BenchUsageError, checkDatabaseReachable } from '../lib/args';
import { Cleanup, runBench } from '../lib/cleanup';
import { coreApiEnv } from '../lib/core-api';
import { prepareDatabase } from '../lib/database';
import { measure, type Measurement } from '../lib/load';
import { freePort, startBundle, startTs, waitForOk, type Service as Child } from '../lib/processes';
import { writeJson } from '../lib/report';
import { agentFor, wav } from './http';
import { ALL_ROUTES, drive, newStats, selectRoutes, type LoadContext, type RouteDef, type RouteStats, type Service, type WriteRecord } from './mix';
import { SEARCH_WORDS, seedTablesDirectly, seedUsers, TRANSCRIPT } from './seed';
import { verify, type Verification } from './verify';

const RESULTS_FILE = path.join(__dirname, '..', 'results', 'load.json');
const P99_TARGET_MS = 200;
const USAGE = 'usage: npm run bench:load (settings by environment: BENCH_LOAD_SECONDS, BENCH_LOAD_CONNECTIONS, BENCH_LOAD_WARMUP, BENCH_LOAD_ONLY, BENCH_DATABASE_URL)';
const say = (line: string) => process.stderr.write(`[bench:load] ${line}\n`);

interface Settings {
  seconds: number;
  connections: number;
  warmupSeconds: number;
  routes: RouteDef[];
}

/** Flags and settings, checked before anything starts: bad input is one line and exit code 2. */
export function parseSettings(argv: readonly string[], env: NodeJS.ProcessEnv): Settings {
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') throw new BenchUsageError(USAGE);
    throw new BenchUsageError(`bench:load: unknown flag "${arg}" (${USAGE})`);
  }
  const number = (name: string, def: number, min: number, max: number, whole: boolean) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
      throw new BenchUsageError(`bench:load: ${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${raw}"`);
    }
    return n;
  };
  const routes = selectRoutes(env['BENCH_LOAD_ONLY']);
  if (!routes.length) throw new BenchUsageError(`bench:load: BENCH_LOAD_ONLY="${env['BENCH_LOAD_ONLY']}" matches no route (${ALL_ROUTES.map((r) => r.name).join('; ')})`);
  return {
    routes,
    seconds: number('BENCH_LOAD_SECONDS', 60, 1, 3600, false),
    connections: number('BENCH_LOAD_CONNECTIONS', 50, 1, 1000, true),
    warmupSeconds: number('BENCH_LOAD_WARMUP', 3, 0, 600, false),
  };
}

const percentile = (sorted: number[], p: number) => (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN);
const ms = (v: number) => (Number.isFinite(v) ? (Math.round(v * 10) / 10).toFixed(1) : '-');

interface RouteRow {
  route: string;
  ai: boolean;
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  s4xx: number;
  s5xx: number;
  connErrors: number;
  /** Non-2xx and errors of the warm-up (not in the figures, counted in the checks). */
  warmup: { requests: number; s4xx: number; s5xx: number; connErrors: number };
  samples: string[];
}

function rowsOf(measured: Map<string, RouteStats>, warmup: Map<string, RouteStats>, seconds: number): RouteRow[] {
  const row = (route: string, ai: boolean, s: RouteStats, w: RouteStats): RouteRow => {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    return {
      route,
      ai,
      requests: s.requests,
      requestsPerSec: s.requests / seconds,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      ok: s.ok,
      s4xx: s.s4xx,
      s5xx: s.s5xx,
      connErrors: s.connErrors,
      warmup: { requests: w.requests, s4xx: w.s4xx, s5xx: w.s5xx, connErrors: w.connErrors },
      samples: [...w.samples, ...s.samples].slice(0, 3),
    };
  };
  const rows = ALL_ROUTES.filter((r) => measured.has(r.name) || warmup.has(r.name)).map((r) => row(r.name, r.ai, measured.get(r.name) ?? newStats(), warmup.get(r.name) ?? newStats()));
  const sum = (m: Map<string, RouteStats>): RouteStats => {
    const all = [...m.values()];
    return { requests: all.reduce((a, s) => a + s.requests, 0), ok: all.reduce((a, s) => a + s.ok, 0), s4xx: all.reduce((a, s) => a + s.s4xx, 0), s5xx: all.reduce((a, s) => a + s.s5xx, 0), connErrors: all.reduce((a, s) => a + s.connErrors, 0), latencies: all.flatMap((s) => s.latencies), samples: [] };
  };
  rows.push(row('all routes', false, sum(measured), sum(warmup)));
  return rows;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

interface Check {
  name: string;
  target: string;
  actual: string;
  met: boolean;
  /** Correctness (a miss fails the run) rather than speed (a miss is printed). */
  correctness: boolean;
}

function checksOf(rows: RouteRow[], v: Verification, crashes: string[]): Check[] {
  const all = rows[rows.length - 1] as RouteRow; // rowsOf puts 'all routes' last
  const total = (k: keyof Verification['kinds'][number]) => v.kinds.reduce((a, x) => a + (x[k] as number), 0);
  const checks: Check[] = [
    { name: '5xx answers (all routes, warm-up included)', target: '0', actual: String(all.s5xx + all.warmup.s5xx), met: all.s5xx + all.warmup.s5xx === 0, correctness: true },
    { name: 'connection errors and timeouts (all routes)', target: '0', actual: String(all.connErrors + all.warmup.connErrors), met: all.connErrors + all.warmup.connErrors === 0, correctness: true },
    { name: '4xx answers (the mix sends only valid requests)', target: '0', actual: String(all.s4xx + all.warmup.s4xx), met: all.s4xx + all.warmup.s4xx === 0, correctness: true },
    { name: 'acknowledged writes lost', target: '0', actual: `${total('lost')} of ${total('acknowledged')}`, met: total('lost') === 0, correctness: true },
    { name: 'writes duplicated', target: '0', actual: String(total('duplicated')), met: total('duplicated') === 0, correctness: true },
    { name: 'writes half-written (or written after a refusal)', target: '0', actual: String(total('halfWritten')), met: total('halfWritten') === 0, correctness: true },
    ...v.invariants.map((i) => ({ name: i.name, target: String(i.expected), actual: String(i.actual), met: i.actual === i.expected, correctness: true })),
    { name: 'services alive after the load', target: 'all 3', actual: crashes.length ? crashes.join('; ') : 'all 3', met: crashes.length === 0, correctness: true },
  ];
  for (const r of rows.filter((x) => !x.ai && x.route !== 'all routes')) {
    checks.push({ name: `${r.route} p99`, target: `< ${P99_TARGET_MS} ms`, actual: `${ms(r.p99Ms)} ms`, met: r.p99Ms < P99_TARGET_MS, correctness: false });
  }
  return checks;
}

interface CpuSample {
  /** utime + stime (+ waited-for children: ffmpeg and ffprobe of the recording jobs) per service, in clock ticks. */
  services: number[];
  machineBusy: number;
  machineTotal: number;
  at: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuSample(pids: number[]): CpuSample {
  const ticks = (pid: number) => {
    try {
      // Fields after the ")" of the command: state is [0], utime [11], stime [12], cutime [13], cstime [14].
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return [11, 12, 13, 14].reduce((a, i) => a + Number(f[i] ?? 0), 0);
    } catch {
      return Number.NaN;
    }
  };
  let machineBusy = Number.NaN;
  let machineTotal = Number.NaN;
  try {
    const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    machineTotal = cpu.reduce((a, b) => a + b, 0);
    machineBusy = machineTotal - (cpu[3] ?? 0) - (cpu[4] ?? 0); // minus idle and iowait
  } catch {
    // not Linux: no machine figures
  }
  return { services: pids.map(ticks), machineBusy, machineTotal, at: performance.now() };
}

interface CpuUse {
  /** CPU seconds each service used during the measured run. */
  services: Record<string, number>;
  /** Share of the whole machine's CPU time that was busy (everything on it, not only this bench). */
  machineBusyShare: number;
  seconds: number;
}

function cpuUse(a: CpuSample, b: CpuSample, names: string[]): CpuUse {
  return {
    services: Object.fromEntries(names.map((n, i) => [n, ((b.services[i] ?? Number.NaN) - (a.services[i] ?? Number.NaN)) / TICKS_PER_SECOND])),
    machineBusyShare: (b.machineBusy - a.machineBusy) / (b.machineTotal - a.machineTotal),
    seconds: (b.at - a.at) / 1000,
  };
}

const SERVICE_OF: Record<string, Service> = { 'core-api': 'core', 'email-service': 'email', 'tools-api': 'tools' };

/** CPU each service used per request it answered in the measured run: a figure the machine's noise moves less than latency. */
function cpuLines(cpu: CpuUse | undefined, rows: RouteRow[]): string[] {
  if (!cpu) return [];
  const lines = Object.entries(cpu.services).map(([name, seconds]) => {
    const requests = rows.filter((r) => ALL_ROUTES.find((d) => d.name === r.route)?.service === SERVICE_OF[name]).reduce((a, r) => a + r.requests, 0);
    return `  ${name}: ${seconds.toFixed(1)} CPU s (${(seconds / cpu.seconds).toFixed(2)} cores), ${requests ? ((seconds * 1000) / requests).toFixed(1) : '-'} ms CPU per request`;
  });
  return [`CPU during the measured run (the whole machine was ${(cpu.machineBusyShare * 100).toFixed(0)}% busy, this bench and everything else on it):`, ...lines];
}

/** bench/baselines/pk-select.ts (as in `npm run bench`), 3 s warm-up + 10 s of autocannon. */
async function pkSelectBaseline(databaseUrl: string, userId: string, connections: number, cleanup: Cleanup): Promise<Measurement> {
  const port = await freePort();
  const service = startTs('pk-select', 'bench/baselines/pk-select.ts', { BENCH_PORT: String(port), BENCH_DATABASE: databaseUrl });
  cleanup.add('stop pk-select', () => service.stop());
  try {
    const url = `http://127.0.0.1:${port}/accounts/${userId}`;
    await waitForOk(url, service);
    say(`baseline: bare Fastify + pk select, ${connections} connections, 3 s warm-up + 10 s`);
    return await measure({ name: 'baseline: fastify + pk select', url }, { connections, warmupSeconds: 3, durationSeconds: 10 });
  } finally {
    await service.stop();
  }
}

/**
 * The checker must be able to fail: it is run once more on a ledger with two planted faults, an
 * acknowledged upload that was never sent (must count as lost) and a webhook that was written but is
 * entered as refused (must count as written after a refusal).
 */
async function checkTheChecker(databaseUrl: string, runId: string, ledger: WriteRecord[], storageRoot: string): Promise<Check> {
  const written = ledger.find((w) => w.kind === 'webhook' && w.outcome === 'ack');
  const planted: WriteRecord[] = [{ kind: 'upload', marker: `load-up-${runId}-never-sent`, outcome: 'ack', status: 201, userId: '' }];
  if (written) planted.push({ ...written, outcome: 'refused', status: 401 });
  const v = await verify(databaseUrl, runId, planted, storageRoot);
  const lost = v.kinds.find((k) => k.kind === 'upload')?.lost ?? 0;
  const half = v.kinds.find((k) => k.kind === 'webhook')?.halfWritten ?? 0;
  const expected = written ? 1 : 0;
  return { name: 'the checker finds planted faults (lost, written after refusal)', target: `1, ${expected}`, actual: `${lost}, ${half}`, met: lost === 1 && half === expected, correctness: true };
}

async function main(settings: Settings, cleanup: Cleanup): Promise<number> {
  say('bundling the three services with esbuild (as npm start does)');
  const bundles = await bundleServices();
  const db = await prepareDatabase(cleanup, say);
  say(`database ${db.name} on ${db.server}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-load-'));
  cleanup.add('remove the data directory', async () => rmSync(dataDir, { recursive: true, force: true }));

  const ports: Record<Service, number> = { core: await freePort(), email: await freePort(), tools: await freePort() };
  const urls: Record<Service, string> = { core: `http://127.0.0.1:${ports.core}`, email: `http://127.0.0.1:${ports.email}`, tools: `http://127.0.0.1:${ports.tools}` };
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const env: Record<string, string> = {
    ...coreApiEnv(db.url, ports.core, dataDir), // RATE_LIMIT_SCALE=1000000: every limit still runs, none answers 429
    EMAIL_SERVICE_PORT: String(ports.email),
    TOOLS_API_PORT: String(ports.tools),
    EMAIL_WEBHOOK_SECRET: webhookSecret,
    STORAGE_DRIVER: 'local',
    LLM_PROVIDER: 'local',
    // As deployed behind one load balancer: each virtual user has its own address in X-Forwarded-For.
    TRUST_PROXY: '1',
  };
  const children: Child[] = [];
  const start = async (name: 'core-api' | 'email-service' | 'tools-api', url: string) => {
    const child = startBundle(name, bundles[name], env);
    cleanup.add(`stop ${name}`, () => child.stop());
    children.push(child);
    await waitForOk(`${url}/health`, child);
  };
  // core-api first: it applies the migrations the other two then find done.
  await start('core-api', urls.core);
  await Promise.all([start('email-service', urls.email), start('tools-api', urls.tools)]);
  say('the three services are healthy');

  const agents: Record<Service, ReturnType<typeof agentFor>> = { core: agentFor(settings.connections), email: agentFor(settings.connections), tools: agentFor(settings.connections) };
  const runId = randomBytes(4).toString('hex');
  const audio = wav(2);
  say(`seeding: ${settings.connections} storytellers through the API (sign-up, campaign, 3 recordings each), tools content and sent emails with SQL`);
  const { messageIds } = await seedTablesDirectly(db.url, runId);
  const users = await seedUsers(settings.connections, urls.core, agents.core, db.url, audio);
  cleanup.assertRunning();

  const ctx: LoadContext = { runId, urls, agents, webhookSecret, messageIds, searchWords: SEARCH_WORDS, audio, transcript: TRANSCRIPT };
  say(`load: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s measured`);
  const pids = children.map((c) => c.child.pid ?? 0);
  let cpuBefore: CpuSample | undefined;
  const result = await drive(users, ctx, { warmupSeconds: settings.warmupSeconds, seconds: settings.seconds, routes: settings.routes, stopped: () => cleanup.stopping, onMeasuredStart: () => (cpuBefore = cpuSample(pids)) });
  const cpu = cpuBefore ? cpuUse(cpuBefore, cpuSample(pids), children.map((c) => c.name)) : undefined;
  cleanup.assertRunning();
  for (const a of Object.values(agents)) a.destroy();
  // Let queued work settle (recording jobs) before reading the database; answers were all received already.
  await new Promise((r) => setTimeout(r, 1000));
  const crashes = children.map((c) => c.crash()).filter((c): c is string => Boolean(c));

  say(`checking ${result.ledger.length} writes in the database`);
  const verification = await verify(db.url, runId, result.ledger, path.join(dataDir, 'storage'));
  // The same machine right now, without the services: the floor of any route that reads PostgreSQL.
  const baseline = await pkSelectBaseline(db.url, users[0]?.userId ?? '', settings.connections, cleanup);
  const rows = rowsOf(result.stats.measured, result.stats.warmup, result.measuredSeconds);
  const checks = checksOf(rows, verification, crashes);
  checks.push(await checkTheChecker(db.url, runId, result.ledger, path.join(dataDir, 'storage')));

  const out = [
    '',
    `load mix: ${settings.connections} connections, ${ms(result.measuredSeconds)} s measured after ${settings.warmupSeconds} s warm-up; ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    '',
    ...table(
      ['route', 'AI', 'req/s', 'p50 ms', 'p99 ms', '2xx', '4xx', '5xx', 'conn err'],
      rows.map((r) => [r.route, r.ai ? 'yes' : '', r.requestsPerSec.toFixed(1), ms(r.p50Ms), ms(r.p99Ms), String(r.ok), String(r.s4xx + r.warmup.s4xx), String(r.s5xx + r.warmup.s5xx), String(r.connErrors + r.warmup.connErrors)]),
    ),
    '(4xx, 5xx and connection errors include the warm-up; req/s and latencies are the measured run only)',
    '',
    ...cpuLines(cpu, rows),
    `baseline, same machine, after the load: bare Fastify + one primary-key select at ${settings.connections} connections: ${baseline.requestsPerSec.toFixed(0)} req/s, p50 ${ms(baseline.p50Ms)} ms, p99 ${ms(baseline.p99Ms)} ms`,
    '',
    'writes checked in the database:',
    ...table(
      ['write', 'acked', 'refused', 'no answer', 'lost', 'duplicated', 'half-written'],
      verification.kinds.map((k) => [k.kind, String(k.acknowledged), String(k.refused), String(k.unknown), String(k.lost), String(k.duplicated), String(k.halfWritten)]),
    ),
    ...verification.kinds.flatMap((k) => k.problems.map((p) => `  ${k.kind}: ${p}`)),
    ...rows.flatMap((r) => (r.route !== 'all routes' && r.samples.length ? r.samples.map((s) => `  ${r.route}: ${s}`) : [])),
    '',
    'checks:',
    ...table(['check', 'target', 'actual', 'result'], checks.map((c) => [c.name, c.target, c.actual, c.met ? 'met' : 'MISSED'])),
    '',
  ];
  process.stdout.write(out.join('\n'));

  writeJson(RESULTS_FILE, {
    finishedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg() },
    database: db.server,
    load: { connections: settings.connections, warmupSeconds: settings.warmupSeconds, seconds: settings.seconds, measuredSeconds: result.measuredSeconds },
    cpu,
    baseline,
    mix: settings.routes.map((r) => ({ route: r.name, weight: r.weight, ai: r.ai })),
    routes: rows,
    writes: verification.kinds,
    invariants: verification.invariants,
    checks: checks.map(({ name, target, actual, met }) => ({ name, target, actual, met })),
  });
  say(`results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
  const failed = checks.filter((c) => c.correctness && !c.met);
  if (failed.length) {
    process.stderr.write(`\nBENCH FAILED:\n${failed.map((c) => `  - ${c.name}: ${c.actual} (expected ${c.target})`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

if (require.main === module) {
  void (async () => {
    let settings: Settings;
    try {
      settings = parseSettings(process.argv.slice(2), process.env);
      await checkDatabaseReachable();
    } catch (err) {
      if (!(err instanceof BenchUsageError)) throw err;
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    runBench((cleanup) => main(settings, cleanup), say);
  })();
}
