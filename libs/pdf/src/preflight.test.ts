// The preflight catches what a print shop would refuse: fonts not embedded or not ours, missing or wrong
// page boxes, empty boxes (.notdef) drawn for characters a font lacks, too many pages.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fontList } from './fonts';
import { contentOperations, setPrintBoxes } from './pdf-inspect';
import { preflightPdf } from './preflight';
import { typesetter } from './typst';

afterAll(() => typesetter().close());

describe('preflight', () => {
  it('fails a PDF whose font is not embedded, not ours, and whose pages have no print boxes', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([432, 648]);
    page.drawText('Hello', { x: 50, y: 500, font: await doc.embedFont(StandardFonts.Helvetica) });
    const report = await preflightPdf(await doc.save(), { trimBox: [0, 0, 432, 648] });
    expect(report.passed).toBe(false);
    expect(report.fonts).toEqual([{ name: 'Helvetica', embedded: false, subset: false, bundled: false }]);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        'The font Helvetica is not embedded.',
        'The font Helvetica is embedded whole, not as a subset.',
        'The font Helvetica is not one of the bundled fonts.',
        expect.stringMatching(/^Page 1: TrimBox missing, BleedBox missing, MediaBox \[0 0 432 648\]/),
      ]),
    );
    expect(report.boxes.consistent).toBe(false);
  });

  it('fails boxes that disagree with the geometry, and passes them once set', async () => {
    const typeset = await typesetter().typeset('#set page(width: 432pt, height: 648pt)\n#set text(font: "Noto Serif", fallback: false)\nHello', null);
    const wrong = await setPrintBoxes(typeset.pdf, { trimBox: [0, 0, 400, 648] });
    const bad = await preflightPdf(wrong, { trimBox: [0, 0, 432, 648] });
    expect(bad.passed).toBe(false);
    expect(bad.problems[0]).toMatch(/^Page 1: TrimBox \[0 0 400 648\]/);
    const right = await setPrintBoxes(typeset.pdf, { trimBox: [0, 0, 432, 648] });
    const good = await preflightPdf(right, { trimBox: [0, 0, 432, 648] });
    expect(good).toMatchObject({ passed: true, problems: [], boxes: { consistent: true, trimBox: [0, 0, 432, 648], bleedBox: [0, 0, 432, 648] } });
    expect(good.fonts).toEqual([expect.objectContaining({ embedded: true, subset: true, bundled: true })]);
  });

  it('finds glyph 0 (.notdef) drawn when a font lacks a character (here forced past the glyph check)', async () => {
    const fonts = `(${fontList('serif').map((f) => JSON.stringify(f)).join(', ')},)`;
    const typeset = await typesetter().typeset(`#set text(font: ${fonts}, fallback: false)\n#json(bytes(sys.inputs.data))`, 'Grandmother said สวัสดี');
    const report = await preflightPdf(typeset.pdf, {});
    expect(report.notdefGlyphs).toBeGreaterThanOrEqual(4);
    expect(report.passed).toBe(false);
    expect(report.problems.join(' ')).toMatch(/glyph\(s\) of [A-Z]{6}\+NotoSerif-Regular are empty boxes \(\.notdef\)/);
  });

  it('fails a document over its page allowance with the sentence given', async () => {
    const typeset = await typesetter().typeset('#set page(width: 200pt, height: 200pt)\n#set text(font: "Noto Serif", fallback: false)\nOne #pagebreak() Two #pagebreak() Three', null);
    const report = await preflightPdf(typeset.pdf, { maxPages: { pages: 2, reason: (n) => `Your plan allows 2 pages, not ${n}.` }, label: 'interior' });
    expect(report.problems).toContain('The interior has 3 pages. Your plan allows 2 pages, not 3.');
  });
});

describe('content stream tokenizer', () => {
  it('reads strings with escapes, hex strings, arrays, names and inline dictionaries', () => {
    const stream = Buffer.from('/Span << /MCID 0 /ActualText (a\\)b) >> BDC BT /f0 11 Tf [(\\000\\001) -20 <0002 0003>] TJ (x\\\\y\\n) Tj ET EMC % comment\n');
    const ops = [...contentOperations(stream)];
    expect(ops.map((o) => o.operator)).toEqual(['BDC', 'BT', 'Tf', 'TJ', 'Tj', 'ET', 'EMC']);
    expect(ops[0]!.operands).toEqual(['/Span', null]);
    expect(ops[2]!.operands).toEqual(['/f0', 11]);
    const [array] = ops[3]!.operands as [unknown[]];
    expect(array).toEqual([Uint8Array.from([0, 1]), -20, Uint8Array.from([0, 2, 0, 3])]);
    expect(Buffer.from(ops[4]!.operands[0] as Uint8Array).toString('latin1')).toBe('x\\y\n');
  });
});
