// Names in Polish, Greek, Vietnamese and Chinese written with the fallback chain and read back by PDF.js
// (pdf-parse) in a plain Node process, as a reader's program would open the file.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { createPdfText } from './unicode-text';

const NAMES = ['Zażółć gęślą jaźń', 'Łódź', 'Καλημέρα', 'Nguyễn Thị Minh Khai', '王秀英'];

async function pdfText(buffer: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pdf-text-'));
  try {
    const file = path.join(dir, 'f.pdf');
    await writeFile(file, buffer);
    const reader = `const { PDFParse } = require(process.argv[1]); const p = new PDFParse({ data: new Uint8Array(require('node:fs').readFileSync(process.argv[2])) }); p.getText().then((t) => { process.stdout.write(t.text); return p.destroy(); });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', reader, require.resolve('pdf-parse'), file]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function render(draw: (doc: InstanceType<typeof PDFDocument>) => void): Promise<Buffer> {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  draw(doc);
  doc.end();
  return done;
}

it('cuts text into runs: DejaVu for Latin, Greek and Vietnamese, a Source Han Serif piece per Han character', () => {
  const doc = new PDFDocument();
  const pdf = createPdfText(doc, { family: 'serif' });
  expect(pdf.runs('Zażółć Καλημέρα Nguyễn').map((r) => r.font)).toEqual(['DejaVuSerif']);
  const han = pdf.runs('Li 王秀英');
  expect(han[0]).toEqual({ font: 'DejaVuSerif', text: 'Li ' });
  expect(han.slice(1).map((r) => r.text).join('')).toBe('王秀英');
  expect(han.slice(1).every((r) => r.font !== 'DejaVuSerif')).toBe(true);
  // Decomposed accents are composed first, so the face draws them whole.
  expect(pdf.runs('Nguye\u0302\u0303n')).toEqual([{ font: 'DejaVuSerif', text: 'Nguyễn' }]);
  expect(pdf.use({ family: 'mono', bold: true }).runs('x')[0]!.font).toBe('DejaVuSansMono-Bold');
  doc.end();
});

it('writes every name so that a PDF reader gets the exact text back, with fonts subset to a small file', async () => {
  const body = await render((doc) => {
    const pdf = createPdfText(doc);
    for (const [i, name] of NAMES.entries()) pdf.use({ family: i % 2 ? 'sans' : 'serif', bold: i === 2, italic: i === 3 }).text(`${name} (${i}).`, { width: 400 });
    pdf.use({ family: 'serif' }).text('Mixed: Łódź, ', { continued: true, width: 400 });
    pdf.text('王秀英 and Καλημέρα.', { width: 400 });
  });
  const text = await pdfText(body);
  for (const [i, name] of NAMES.entries()) expect(text).toContain(`${name} (${i}).`);
  expect(text).toContain('Mixed: Łódź, 王秀英 and Καλημέρα.');
  // Five DejaVu faces and three CJK pieces, all subset: tens of kilobytes, not megabytes.
  expect(body.length).toBeLessThan(120_000);
});

it('measures mixed text run by run', () => {
  const doc = new PDFDocument();
  const pdf = createPdfText(doc, { family: 'sans' });
  doc.fontSize(20);
  const latin = pdf.widthOfString('AB');
  const han = pdf.widthOfString('王秀');
  // A Han character is one em wide: two of them are 40 points at 20 points.
  expect(han).toBeCloseTo(40, 0);
  expect(pdf.widthOfString('AB王秀')).toBeCloseTo(latin + han, 5);
  expect(pdf.heightOfString('王'.repeat(200), { width: 200 })).toBeGreaterThan(pdf.heightOfString('王', { width: 200 }) * 10);
  doc.end();
});

it('centres a line of mixed fonts as one line, and wraps a long one line by line', async () => {
  const body = await render((doc) => {
    const pdf = createPdfText(doc);
    doc.fontSize(24);
    pdf.use({ family: 'serif', bold: true }).text('Rodzina 王秀英', { align: 'center', width: 400 }, 100, 100);
    expect(doc.y).toBeGreaterThan(120);
    doc.fontSize(12);
    pdf.use({ family: 'sans' }).text(`${'Łódź 王秀英 Καλημέρα '.repeat(12)}end`, { align: 'right', width: 300 });
  });
  const text = await pdfText(body);
  expect(text).toContain('Rodzina 王秀英');
  // Lines may break between Han characters, so compare without white space.
  const squash = (s: string) => s.replace(/\s+/g, '');
  expect(squash(text)).toContain(squash(`${'Łódź 王秀英 Καλημέρα '.repeat(12)}end`));
  expect(text.split('\n').filter((l) => l.includes('Καλημέρα')).length).toBeGreaterThan(3);
});
