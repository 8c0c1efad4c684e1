// One measured render in a fresh process (argv: engine, runs): the time of each render, the process's peak
// resident memory and, for Typst, the peak of the typesetting child it runs (typesetter().peakRssBytes),
// printed as JSON. The two peaks are of separate processes: their sum bounds what a render holds at once.
import { Writable } from 'node:stream';
import { closeTypesetter, typesetInterior, typesetter, type PrintChapter } from '@story/pdf';
import { DEFAULT_HEADER_FOOTER } from '../../apps/core-api/src/features/stories/story-layout';
import { benchBook } from './book';
import { streamInterior } from './pdfkit-baseline/pdf-render';

const engine = process.argv[2];
const runs = Number(process.argv[3] ?? 1);
const chapters = benchBook();
const book = { title: 'The Miller Family', subtitle: 'Stories from the farm', author: 'Rose Miller', trimSize: '6x9', language: 'en', keywords: ['family'] };

async function pdfkit(): Promise<{ pages: number; bytes: number }> {
  const typography = { fontFamily: 'Times' as const, fontSize: 11, lineHeight: 1.4 };
  const { stream, done } = streamInterior(book, chapters.map((c) => ({ title: c.title, blocks: c.blocks, typography, headerFooter: DEFAULT_HEADER_FOOTER })));
  let bytes = 0;
  // Bytes counted and dropped, as a stream into storage would take them.
  const sink = new Writable({ write: (chunk: Buffer, _e, cb) => ((bytes += chunk.length), cb()) });
  const finished = new Promise<void>((resolve, reject) => sink.on('finish', resolve).on('error', reject));
  stream.pipe(sink);
  const layout = await done;
  await finished;
  return { pages: layout.pages, bytes };
}

async function typst(): Promise<{ pages: number; bytes: number; preflight: boolean }> {
  const print: PrintChapter[] = chapters.map((c) => ({
    title: c.title,
    blocks: c.blocks,
    style: 'serif',
    size: 11,
    lineHeight: 1.4,
    header: { show: true, text: null, align: 'center' },
    footer: { show: true, text: null, align: 'center', numbers: true, position: 'outside' },
  }));
  const result = await typesetInterior(book, print);
  if (!result.ok) throw new Error(result.reason);
  return { pages: result.pages, bytes: result.pdf.length, preflight: result.preflight.passed };
}

(async () => {
  const times: number[] = [];
  let last: Record<string, unknown> = {};
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    last = engine === 'pdfkit' ? await pdfkit() : await typst();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const childPeakRssMb = engine === 'pdfkit' ? 0 : typesetter().peakRssBytes / 1024 / 1024;
  await closeTypesetter();
  process.stdout.write(JSON.stringify({ engine, times, peakRssMb: process.resourceUsage().maxRSS / 1024, childPeakRssMb, ...last }));
})().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
