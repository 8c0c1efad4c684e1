// `npm run bench:start`: how long each service takes from spawn to its first healthy answer, on an already
// migrated database, next to a bare Fastify hello-world bundled and started the same way in the same run
// (issue 16: "start in under a second"). Each service is bundled with tools/bundle.ts, as `npm start`
// runs it, and started BENCH_STARTS times (default 5); the report gives medians and the ratio to the
// baseline's median, and writes bench/results/start.json.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { bundleServices, SERVICE_NAMES, type ServiceName } from '../tools/bundle';
import { coreApiEnv } from './lib/core-api';
import { Cleanup, runBench } from './lib/cleanup';
import { prepareDatabase } from './lib/database';
import { freePort, ROOT, startBundle, waitForOk } from './lib/processes';
import { median, writeJson } from './lib/report';

const say = (line: string) => process.stderr.write(`[bench:start] ${line}\n`);
const TARGET_MS = 1000;
const PORT_VARIABLE: Record<ServiceName, string> = { 'core-api': 'CORE_API_PORT', 'email-service': 'EMAIL_SERVICE_PORT', 'tools-api': 'TOOLS_API_PORT' };

function starts(): number {
  const raw = process.env['BENCH_STARTS'] ?? '5';
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1) throw new Error(`BENCH_STARTS="${raw}": must be a whole number of at least 1`);
  return n;
}

/** Spawn the bundle, wait for 200 on `readyPath`, stop it; returns spawn-to-ready in ms. */
async function timeOneStart(name: string, bundle: string, env: Record<string, string>, port: number, readyPath: string, cleanup: Cleanup): Promise<number> {
  cleanup.assertRunning();
  const started = performance.now();
  const service = startBundle(name, bundle, env);
  try {
    await waitForOk(`http://127.0.0.1:${port}${readyPath}`, service);
    return performance.now() - started;
  } finally {
    await service.stop();
  }
}

async function main(cleanup: Cleanup): Promise<number> {
  const rounds = starts();
  say('bundling the three services and the baseline with esbuild');
  const bundleStarted = performance.now();
  const bundles = await bundleServices();
  const bundleMs = performance.now() - bundleStarted;
  // Beside the service bundles, so it resolves fastify from the project's node_modules like they do.
  const baseline = path.join(ROOT, 'dist', 'bench', 'hello.cjs');
  await build({ absWorkingDir: ROOT, entryPoints: ['bench/baselines/hello.ts'], outfile: baseline, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning' });

  const db = await prepareDatabase(cleanup, say);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-data-'));
  cleanup.add('remove the data directory', async () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env = (name: ServiceName) => ({ ...coreApiEnv(db.url, port, dataDir), [PORT_VARIABLE[name]]: String(port) });

  // The first start applies every migration: timed apart, not part of the medians.
  const first = await timeOneStart('core-api', bundles['core-api'], env('core-api'), port, '/health', cleanup);
  say(`core-api first start (fresh database, migrations applied): ${first.toFixed(0)} ms`);

  const times: Record<string, number[]> = { baseline: [], ...Object.fromEntries(SERVICE_NAMES.map((n) => [n, [] as number[]])) };
  // Interleaved rounds: a burst of load elsewhere on the machine falls on every target alike.
  for (let round = 1; round <= rounds; round++) {
    times['baseline']!.push(await timeOneStart('baseline', baseline, { BENCH_PORT: String(port) }, port, '/', cleanup));
    for (const name of SERVICE_NAMES) times[name]!.push(await timeOneStart(name, bundles[name], env(name), port, '/health', cleanup));
    say(`round ${round}/${rounds}: ${Object.entries(times).map(([n, t]) => `${n} ${t[t.length - 1]!.toFixed(0)} ms`).join(', ')}`);
  }

  const base = median(times['baseline']!);
  const rows = Object.entries(times).map(([name, t]) => ({ name, medianMs: Math.round(median(t)), ratioToBaseline: Number((median(t) / base).toFixed(2)), runsMs: t.map(Math.round) }));
  const misses = rows.filter((r) => r.name !== 'baseline' && r.medianMs >= TARGET_MS).map((r) => `${r.name} ${r.medianMs} ms`);
  process.stdout.write(`\nstart to first healthy answer, migrated database, median of ${rounds} (target < ${TARGET_MS} ms each)\n\n`);
  process.stdout.write('| target | median ms | x baseline |\n|---|---|---|\n');
  for (const r of rows) process.stdout.write(`| ${r.name === 'baseline' ? 'baseline: fastify hello-world' : r.name} | ${r.medianMs} | ${r.ratioToBaseline} |\n`);
  process.stdout.write(`\n${misses.length ? `MISSED: ${misses.join(', ')}` : 'every service started in under a second'}\n`);
  const checks = rows
    .filter((r) => r.name !== 'baseline')
    .map((r) => ({ name: `${r.name} start (median, migrated db)`, target: `< ${TARGET_MS} ms`, actual: `${r.medianMs} ms (${r.ratioToBaseline}x hello-world)`, met: r.medianMs < TARGET_MS }));
  checks.push({ name: 'first start: bundle the three services + core-api on a fresh database', target: '< 30000 ms', actual: `${Math.round(bundleMs + first)} ms (bundle ${Math.round(bundleMs)} ms)`, met: bundleMs + first < 30_000 });
  writeJson(path.join(__dirname, 'results', 'start.json'), { measuredAt: new Date().toISOString(), rounds, bundleMs: Math.round(bundleMs), firstStartMs: Math.round(first), rows, checks });
  return 0;
}

runBench(main, say);
