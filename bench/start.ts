// `npm run bench:start`: how long each service takes from spawn to its first healthy answer, on an already
// migrated database, next to a bare Fastify hello-world bundled and started the same way in the same run
// (target: "start in under a second"). Each service is bundled with tools/bundle.ts, as `npm start`
// runs it, and started BENCH_STARTS times (default 5); the report gives medians and the ratio to the
// baseline's median, and writes bench/results/start.json.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
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

/**
 * The first `npm start` exactly as a new user runs it: no DATABASE_URL, so the embedded PostgreSQL creates
 * its data folder (initdb), every migration is applied, the three bundles start; timed to the line saying
 * all services are up. Run through npm itself, in its own process group, stopped with Ctrl-C's SIGINT.
 */
async function timeFirstNpmStart(cleanup: Cleanup): Promise<{ ms: number; lines: string[] }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-first-start-'));
  chmodSync(dataDir, 0o755);
  cleanup.add('remove the first-start data directory', async () => rmSync(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const key of ['DATABASE_URL', 'BENCH_DATABASE_URL', 'NODE_OPTIONS']) delete env[key];
  for (const key of ['CORE_API_PORT', 'EMAIL_SERVICE_PORT', 'TOOLS_API_PORT', 'EMBEDDED_PG_PORT']) env[key] = String(await freePort());
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGINT');
    setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 20_000).unref();
  });
  cleanup.add('stop npm start', stop);
  const lines: string[] = [];
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('npm start: no "all services are up" line within 120 s')), 120_000);
      let buffered = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.startsWith('[start')) lines.push(line);
          if (line.includes('all services are up')) {
            clearTimeout(timer);
            resolve({ ms: performance.now() - started, lines });
          }
        }
      });
      child.stderr!.resume();
      child.once('exit', (code) => reject(new Error(`npm start exited with code ${code} before all services were up`)));
    });
  } finally {
    await stop();
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
  say('first `npm start` on a fresh data folder (embedded PostgreSQL initdb, migrations, three services)');
  const npmStart = await timeFirstNpmStart(cleanup);
  for (const line of npmStart.lines) say(`  ${line}`);
  process.stdout.write(`first \`npm start\` to three healthy services: ${Math.round(npmStart.ms)} ms (${npmStart.lines.length} progress lines; target < 30000 ms)\n`);
  checks.push({ name: 'first `npm start` (fresh data folder: embedded PostgreSQL, migrations, three services healthy)', target: '< 30000 ms, with progress lines', actual: `${Math.round(npmStart.ms)} ms, ${npmStart.lines.length} progress lines (bundle alone ${Math.round(bundleMs)} ms)`, met: npmStart.ms < 30_000 && npmStart.lines.length > 3 });
  writeJson(path.join(__dirname, 'results', 'start.json'), { measuredAt: new Date().toISOString(), rounds, bundleMs: Math.round(bundleMs), firstStartMs: Math.round(first), firstNpmStartMs: Math.round(npmStart.ms), firstNpmStartLines: npmStart.lines, rows, checks });
  return 0;
}

runBench(main, say);
