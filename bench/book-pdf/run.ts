// `npx tsx --tsconfig tsconfig.base.json bench/book-pdf/run.ts`: a 300-page book interior typeset by
// today's path (Typst in a worker thread, with the glyph check, print boxes and the preflight) next to the
// pdfkit renderer it replaced, in the same run. Each measurement is a fresh process (the cold start a job
// runner meets after an idle worker was ended), rounds alternate the engines, and each process renders the
// book twice so the second (warm) render is seen too. Prints a table and writes bench/results/book-pdf.json.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');
const ROUNDS = Number(process.env['BENCH_BOOK_ROUNDS'] ?? 3);

interface Sample {
  engine: string;
  times: number[];
  peakRssMb: number;
  /** The typesetting child's peak (Typst only; 0 for pdfkit, which renders in the process itself). */
  childPeakRssMb: number;
  pages: number;
  bytes: number;
  preflight?: boolean;
}

async function measure(engine: 'typst' | 'pdfkit'): Promise<Sample> {
  const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), '--tsconfig', 'tsconfig.base.json', 'bench/book-pdf/child.ts', engine, '2'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Sample;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

(async () => {
  const samples: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const engine of round % 2 ? (['pdfkit', 'typst'] as const) : (['typst', 'pdfkit'] as const)) {
      const sample = await measure(engine);
      samples.push(sample);
      process.stderr.write(`round ${round + 1} ${engine}: ${sample.times.map((t) => t.toFixed(0)).join(' / ')} ms, ${sample.peakRssMb.toFixed(0)} MB + child ${sample.childPeakRssMb.toFixed(0)} MB, ${sample.pages} pages\n`);
    }
  }
  const summary = (engine: string) => {
    const of = samples.filter((s) => s.engine === engine);
    return {
      engine,
      pages: of[0]!.pages,
      bytes: of[0]!.bytes,
      coldMs: median(of.map((s) => s.times[0]!)),
      warmMs: median(of.map((s) => s.times[1]!)),
      peakRssMb: Math.max(...of.map((s) => s.peakRssMb)),
      childPeakRssMb: Math.max(...of.map((s) => s.childPeakRssMb)),
    };
  };
  const typst = summary('typst');
  const pdfkit = summary('pdfkit');
  const rows = [typst, pdfkit].map((s) => `| ${s.engine} | ${s.pages} | ${(s.bytes / 1024).toFixed(0)} KiB | ${s.coldMs.toFixed(0)} ms | ${s.warmMs.toFixed(0)} ms | ${s.peakRssMb.toFixed(0)} MB | ${s.childPeakRssMb.toFixed(0)} MB |`);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const table = [
    '| engine | pages | size | first render (cold process) | second render (warm) | peak RSS of the process | of its typesetting child |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `typst vs pdfkit: cold ${ratio(typst.coldMs, pdfkit.coldMs)}, warm ${ratio(typst.warmMs, pdfkit.warmMs)}, peak RSS process + child ${ratio(typst.peakRssMb + typst.childPeakRssMb, pdfkit.peakRssMb)} (medians of ${ROUNDS} processes each; typst includes the glyph check, gutter passes, print boxes and preflight)`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  const checks = [
    { name: '300-page interior, typst (cold)', target: 'measured beside pdfkit', actual: `${typst.coldMs.toFixed(0)} ms vs ${pdfkit.coldMs.toFixed(0)} ms`, met: null },
    { name: '300-page interior, peak RSS', target: 'measured beside pdfkit', actual: `${typst.peakRssMb.toFixed(0)} MB + ${typst.childPeakRssMb.toFixed(0)} MB (typesetting child) vs ${pdfkit.peakRssMb.toFixed(0)} MB`, met: null },
  ];
  mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench', 'results', 'book-pdf.json'), `${JSON.stringify({ typst, pdfkit, samples, checks }, null, 2)}\n`);
})().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
