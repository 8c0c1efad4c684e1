// `npm run bench -- --all [--size <factor>]`: every bench in turn, each its own process on one database
// server, then one table of every target (figure, target, met) in bench/results/summary.md. Each bench
// writes its own JSON under bench/results/ with a `checks` list; this file only runs them and collects those.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@story/db';
import type { BenchArgs } from './lib/args';
import type { Cleanup } from './lib/cleanup';
import { freePort, ROOT } from './lib/processes';

const RESULTS = path.join(ROOT, 'bench', 'results');
const SUMMARY = path.join(RESULTS, 'summary.md');
const TSX_CLI = require.resolve('tsx/cli');

interface Step {
  name: string;
  script: string;
  results: string;
  env: Record<string, string>;
}

/** The benches and how the size factor scales each one's data (1 = the full sizes the targets are set at). */
export function benchSteps(size: number): Step[] {
  const scaled = (full: number, min: number) => String(Math.max(min, Math.round(full * size)));
  const duration = String(Math.max(3, Math.round(10 * Math.min(size, 1))));
  return [
    { name: 'start', script: 'bench/start.ts', results: 'start.json', env: { BENCH_STARTS: size < 1 ? '3' : '5' } },
    { name: 'core-api lists and health', script: 'bench/run.ts', results: 'latest.json', env: { BENCH_DURATION: duration } },
    { name: 'stories and books', script: 'bench/core-stories-books.ts', results: 'core-stories-books.json', env: { BENCH_DURATION: duration } },
    { name: 'tools search, browse, generate', script: 'bench/tools/run.ts', results: 'tools.json', env: { BENCH_TOOLS_ROWS: scaled(1_000_000, 20_000), BENCH_TOOLS_RESPONSES: scaled(200_000, 5_000), BENCH_DURATION: duration } },
    { name: 'email queue', script: 'bench/email/queue.ts', results: 'email-queue.json', env: { BENCH_EMAILS: scaled(10_000, 500) } },
    { name: 'admin application pages', script: 'bench/dashboard.ts', results: 'dashboard.json', env: { BENCH_ADMIN_USERS: scaled(100_000, 2_000), BENCH_ADMIN_STORIES: scaled(1_000_000, 20_000), BENCH_DASHBOARD_REQUESTS: size < 1 ? '50' : '200' } },
    { name: 'account erase and data export', script: 'bench/account-erase-export.ts', results: 'account-erase-export.json', env: { BENCH_FILE_KB: scaled(200, 20) } },
    { name: 'book PDF, Typst beside pdfkit', script: 'bench/book-pdf/run.ts', results: 'book-pdf.json', env: { BENCH_BOOK_ROUNDS: size < 1 ? '1' : '3' } },
    { name: 'recordings upload and ranged GET', script: 'bench/recordings/run.ts', results: 'recordings.json', env: { BENCH_RECORDING_BIG_MB: scaled(500, 20) } },
    // 60 s of the mix at size 1 (never more), at least 10 s; always 50 connections, the target's figure.
    { name: 'load mix, writes checked', script: 'bench/load/run.ts', results: 'load.json', env: { BENCH_LOAD_SECONDS: String(Math.max(10, Math.round(60 * Math.min(size, 1)))), BENCH_LOAD_CONNECTIONS: '50' } },
  ];
}

interface Row {
  bench: string;
  check: string;
  actual: string;
  target: string;
  met: boolean | null;
}

/** The benches write checks in two spellings: {name|check, target, actual, met} and {target, measured, ratio, baseline, goal, pass}. */
function rowsOf(bench: string, checks: Record<string, unknown>[]): Row[] {
  return checks.map((c) => {
    const old = c['goal'] !== undefined;
    const actual = old ? `${String(c['measured'])} (${String(c['ratio'])} of ${String(c['baseline'])})` : String(c['actual']);
    return { bench, check: String(c['name'] ?? c['check'] ?? c['target']), actual, target: String(old ? c['goal'] : c['target']), met: (c['met'] ?? c['pass']) as boolean };
  });
}

function runStep(step: Step, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX_CLI, '--tsconfig', 'tsconfig.base.json', step.script], { cwd: ROOT, env: { ...env, ...step.env }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export async function runAll(args: BenchArgs, cleanup: Cleanup, say: (line: string) => void): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!env['BENCH_DATABASE_URL'] && !env['DATABASE_URL']) {
    // One embedded server for all the benches instead of one per bench.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-pg-'));
    chmodSync(dir, 0o755);
    cleanup.add('remove embedded data directory', async () => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    say(`starting embedded PostgreSQL on 127.0.0.1:${port} for every bench`);
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port });
    cleanup.add('stop embedded PostgreSQL', () => server.stop());
    env['BENCH_DATABASE_URL'] = server.adminUrl;
  }
  const rows: Row[] = [];
  const problems: string[] = [];
  const started = Date.now();
  for (const step of benchSteps(args.size)) {
    cleanup.assertRunning();
    const file = path.join(RESULTS, step.results);
    rmSync(file, { force: true });
    say(`== ${step.name}: ${step.script} ${Object.entries(step.env).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    const t0 = Date.now();
    const code = await runStep(step, env);
    say(`== ${step.name}: exit ${code} after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    if (code !== 0) problems.push(`${step.name}: exit code ${code}`);
    if (!existsSync(file)) {
      problems.push(`${step.name}: wrote no ${step.results}`);
      continue;
    }
    const json = JSON.parse(readFileSync(file, 'utf8')) as { checks?: Record<string, unknown>[] };
    rows.push(...rowsOf(step.name, json.checks ?? []));
  }
  const met = rows.filter((r) => r.met === true).length;
  const lines = [
    '# Bench summary',
    '',
    `Written by \`npm run bench -- --all${args.size === 1 ? '' : ` --size ${args.size}`}\` at ${new Date().toISOString()} in ${((Date.now() - started) / 60000).toFixed(1)} min`,
    `(size factor ${args.size}; node ${process.version}, ${os.cpus().length} CPUs, load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}).`,
    'Every figure is measured next to its baseline in the same run; the ratios are what count on a shared machine.',
    '',
    `${met} of ${rows.length} targets met.`,
    '',
    '| bench | check | measured | target | result |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.bench)} | ${cell(r.check)} | ${cell(r.actual)} | ${cell(r.target)} | ${r.met ? 'met' : 'MISSED'} |`),
    ...(problems.length ? ['', 'Problems:', ...problems.map((p) => `- ${p}`)] : []),
    '',
  ];
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(SUMMARY, lines.join('\n'));
  process.stdout.write(`\n${lines.join('\n')}`);
  say(`summary written to ${path.relative(ROOT, SUMMARY)}`);
  return problems.length ? 1 : 0;
}
