// `npm run bench`: core-api under autocannon next to two bare-Fastify baselines started in the same run,
// so its figures read as ratios on a shared, noisy machine. See bench/README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import postgres from 'postgres';
import os from 'node:os';
import path from 'node:path';
import { runAll } from './all';
import { BenchUsageError, checkDatabaseReachable, parseBenchArgs } from './lib/args';
import { Cleanup, runBench } from './lib/cleanup';
import { buildCoreApi, CAMPAIGNS, coreApiEnv, seed, startCoreApi, verifyCampaignList, type CoreApi } from './lib/core-api';
import { prepareDatabase } from './lib/database';
import { cpuPerRequest, type CpuSplit } from './lib/cpu';
import { measure, type LoadOptions, type Measurement, type Target } from './lib/load';
import { freePort, startTs, waitForOk, type Service } from './lib/processes';
import { buildReport, CAMPAIGNS_TARGET, formatReport, HEALTH_TARGET, HELLO, median, PK_SELECT, writeJson, type StartTimes } from './lib/report';

const RESULTS_FILE = path.join(__dirname, 'results', 'latest.json');
const RESTARTS = 3;

const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function loadOptions(): LoadOptions {
  const duration = Number(process.env['BENCH_DURATION'] ?? 10);
  if (!Number.isFinite(duration) || duration <= 0) throw new Error(`BENCH_DURATION="${process.env['BENCH_DURATION']}": must be a positive number of seconds`);
  return { connections: 50, warmupSeconds: 3, durationSeconds: duration };
}

async function startBaseline(name: string, script: string, port: number, readyPath: string, env: Record<string, string>, cleanup: Cleanup): Promise<Service> {
  const service = startTs(name, script, { BENCH_PORT: String(port), ...env });
  cleanup.add(`stop ${name}`, () => service.stop());
  await waitForOk(`http://127.0.0.1:${port}${readyPath}`, service);
  return service;
}

/** Restart core-api RESTARTS times on the migrated database, timing spawn to first healthy answer. */
async function measureRestarts(current: CoreApi, env: Record<string, string>, baseUrl: string, cleanup: Cleanup): Promise<number[]> {
  const times: number[] = [];
  let running = current;
  for (let i = 0; i < RESTARTS; i++) {
    cleanup.assertRunning();
    await running.service.stop();
    running = await startCoreApi(env, baseUrl, cleanup);
    times.push(running.startMs);
    say(`core-api restart ${i + 1}: healthy after ${running.startMs.toFixed(0)} ms`);
  }
  return times;
}

function failuresOf(measurements: Measurement[], services: Service[]): string[] {
  const failures = measurements.flatMap((m) => [
    ...(m.non2xx > 0 ? [`${m.target}: ${m.non2xx} non-2xx responses`] : []),
    ...(m.errors > 0 ? [`${m.target}: ${m.errors} connection errors`] : []),
  ]);
  for (const s of services) {
    const crash = s.crash();
    if (crash) failures.push(crash);
  }
  return failures;
}

async function main(cleanup: Cleanup): Promise<number> {
  const load = loadOptions();
  say('building core-api (esbuild bundle, as deployed)');
  await buildCoreApi();
  const db = await prepareDatabase(cleanup, say);
  say(`database ${db.name} on ${db.server}`);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-data-'));
  cleanup.add('remove core-api data directory', async () => rmSync(dataDir, { recursive: true, force: true }));
  const corePort = await freePort();
  const coreUrl = `http://127.0.0.1:${corePort}`;
  const env = coreApiEnv(db.url, corePort, dataDir);
  const core = await startCoreApi(env, coreUrl, cleanup);
  say(`core-api healthy after ${core.startMs.toFixed(0)} ms (fresh database, migrations applied)`);

  const { userId, accessToken } = await seed(coreUrl, db.url);
  await verifyCampaignList(coreUrl, accessToken);
  say(`signed up one user with ${CAMPAIGNS} campaigns`);

  const helloPort = await freePort();
  const hello = await startBaseline('hello', 'bench/baselines/hello.ts', helloPort, '/', {}, cleanup);
  const pkPort = await freePort();
  const pkPath = `/accounts/${userId}`;
  const pk = await startBaseline('pk-select', 'bench/baselines/pk-select.ts', pkPort, pkPath, { BENCH_DATABASE: db.url }, cleanup);

  const targets: Target[] = [
    { name: HELLO, url: `http://127.0.0.1:${helloPort}/` },
    { name: PK_SELECT, url: `http://127.0.0.1:${pkPort}${pkPath}` },
    { name: HEALTH_TARGET, url: `${coreUrl}/health` },
    { name: CAMPAIGNS_TARGET, url: `${coreUrl}/api/campaigns`, headers: { authorization: `Bearer ${accessToken}` } },
  ];
  const measurements: Measurement[] = [];
  // Where each target's CPU goes (its server's process group, the bench database's backends), per request.
  const serverOf: Record<string, Service> = { [HELLO]: hello, [PK_SELECT]: pk, [HEALTH_TARGET]: core.service, [CAMPAIGNS_TARGET]: core.service };
  const cpu: Record<string, CpuSplit> = {};
  const admin = postgres(db.url, { max: 1, onnotice: () => undefined });
  cleanup.add('close the CPU sampling connection', () => admin.end({ timeout: 5 }));
  for (const target of targets) {
    cleanup.assertRunning();
    say(`${target.name}: ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s, ${load.connections} connections`);
    measurements.push(
      await measure(target, load, async (run) => {
        cpu[target.name] = await cpuPerRequest(serverOf[target.name]?.child.pid, admin, db.name, run);
      }),
    );
    const crashed = [core.service, hello, pk].map((s) => s.crash()).find(Boolean);
    if (crashed) throw new Error(crashed);
  }
  // Checked again after the load: a list that shrank or broke under load would make the figures void.
  await verifyCampaignList(coreUrl, accessToken);
  const failures = failuresOf(measurements, [core.service, hello, pk]);

  await hello.stop();
  await pk.stop();
  const restartsMs = await measureRestarts(core, env, coreUrl, cleanup);
  const startTimes: StartTimes = { firstStartMs: core.startMs, restartsMs, medianMs: median(restartsMs) };

  const report = buildReport(measurements, startTimes);
  process.stdout.write(`\n${formatReport(report)}\n`);
  process.stdout.write(
    `\n(info) CPU per request over the measured run, from /proc: the server's process group + the bench database's PostgreSQL backends\n${Object.entries(cpu)
      .map(([name, c]) => `  ${name.padEnd(30)} server ${c.serverUs.toFixed(0).padStart(5)} µs + PostgreSQL ${c.postgresUs.toFixed(0).padStart(5)} µs`)
      .join('\n')}\n`,
  );
  writeJson(RESULTS_FILE, {
    finishedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg() },
    database: db.server,
    load,
    ...report,
    cpuPerRequestUs: cpu,
    coreApiLogLines: core.service.output.length,
    failures,
  });
  say(`results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);

  if (failures.length > 0) {
    process.stderr.write(`\nBENCH FAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

// Flags and the database are checked before anything starts, so bad input costs one clear line.
void (async () => {
  try {
    const args = parseBenchArgs(process.argv.slice(2));
    await checkDatabaseReachable();
    runBench((cleanup) => (args.all ? runAll(args, cleanup, say) : main(cleanup)), say);
  } catch (err) {
    if (!(err instanceof BenchUsageError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
})();
