// The printed table, the targets next to the figures, and bench/results/latest.json.
// Figures are shown as ratios to the baselines of the same run: the machine is shared and noisy.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Measurement } from './load';

export const HELLO = 'baseline: fastify hello-world';
export const PK_SELECT = 'baseline: fastify + pk select';
export const CAMPAIGNS_TARGET = 'core-api GET /api/campaigns';
export const HEALTH_TARGET = 'core-api GET /health';

export interface StartTimes {
  /** First start, on the fresh database: includes applying every migration. */
  firstStartMs: number;
  /** Restarts on the already migrated database (the figure the target is about). */
  restartsMs: number[];
  medianMs: number;
}

export interface Check {
  name: string;
  target: string;
  actual: string;
  met: boolean;
}

export interface Report {
  measurements: (Measurement & { vsPkSelect: number; vsHello: number })[];
  startTimes: StartTimes;
  checks: Check[];
}

export function buildReport(measurements: Measurement[], startTimes: StartTimes): Report {
  const rps = (name: string) => measurements.find((m) => m.target === name)?.requestsPerSec ?? Number.NaN;
  const pk = rps(PK_SELECT);
  const hello = rps(HELLO);
  const withRatios = measurements.map((m) => ({ ...m, vsPkSelect: m.requestsPerSec / pk, vsHello: m.requestsPerSec / hello }));
  const campaigns = withRatios.find((m) => m.target === CAMPAIGNS_TARGET);
  const health = withRatios.find((m) => m.target === HEALTH_TARGET);
  const checks: Check[] = [
    {
      name: 'GET /api/campaigns req/s vs pk-select',
      target: '>= 50%',
      actual: percent(campaigns?.vsPkSelect ?? Number.NaN),
      met: (campaigns?.vsPkSelect ?? 0) >= 0.5,
    },
    { name: 'GET /api/campaigns p99', target: '< 50 ms', actual: `${ms(campaigns?.p99Ms ?? Number.NaN)} ms`, met: (campaigns?.p99Ms ?? Infinity) < 50 },
    { name: 'GET /health req/s vs pk-select', target: '>= 80%', actual: percent(health?.vsPkSelect ?? Number.NaN), met: (health?.vsPkSelect ?? 0) >= 0.8 },
    { name: 'core-api start (median, migrated db)', target: '< 1 s', actual: `${ms(startTimes.medianMs)} ms`, met: startTimes.medianMs < 1000 },
  ];
  return { measurements: withRatios, startTimes, checks };
}

export function formatReport(report: Report): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs pk-select', 'vs hello'];
  const rows = report.measurements.map((m) => [
    m.target,
    m.requestsPerSec.toFixed(0),
    ms(m.p50Ms),
    ms(m.p99Ms),
    String(m.non2xx),
    String(m.errors),
    percent(m.vsPkSelect),
    percent(m.vsHello),
  ]);
  const { startTimes: s } = report;
  const lines = [
    ...table(header, rows),
    '',
    `core-api start, fresh database (migrations applied): ${ms(s.firstStartMs)} ms`,
    `core-api start, migrated database: ${s.restartsMs.map((v) => `${ms(v)} ms`).join(', ')} (median ${ms(s.medianMs)} ms)`,
    '',
    'targets:',
    ...table(
      ['check', 'target', 'actual', 'result'],
      report.checks.map((c) => [c.name, c.target, c.actual, c.met ? 'met' : 'MISSED']),
      false,
    ),
  ];
  return lines.join('\n');
}

export function writeJson(file: string, data: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (i: number) => sorted[i] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/** Plain-text table; `numeric` right-aligns every column but the first (names). */
function table(header: string[], rows: string[][], numeric = true): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i > 0 && numeric ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

function percent(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(1)}%` : '-';
}

function ms(value: number): string {
  return Number.isFinite(value) ? (Math.round(value * 10) / 10).toString() : '-';
}
