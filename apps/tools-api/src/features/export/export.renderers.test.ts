// The renderers alone: each file is opened with a real reader (PDF.js, a zip reader, an RFC 4180 parser).
import { parseCsv, pdfStreams, readPdf, readZipEntry } from '../../test/export-readers';
import {
  DEFAULT_EXPORT_OPTIONS,
  cardGuid,
  flattenContent,
  renderAnki,
  renderCsv,
  renderDocx,
  renderHtml,
  renderJson,
  renderPdf,
  renderQuizlet,
  type ExportDocument,
  type ExportOptions,
} from './export.renderers';

const deck = (overrides: Partial<ExportDocument> = {}): ExportDocument => ({
  tool: 'flashcards',
  id: '6f1c1f1e-8f5a-4d0e-9a55-0d4c1b2a3e4f',
  shareCode: 'fc_Ab12Cd34',
  title: 'Photosynthesis basics',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T11:00:00.000Z',
  content: {
    topic: 'Biology',
    cards: [
      { front: 'What does chlorophyll absorb?', back: 'Mostly red and blue light', tags: ['light', 'Pigments 101'] },
      { front: 'Where does the Calvin cycle run?', back: 'In the stroma,\n"the fluid" of the chloroplast\tnot the thylakoid' },
      { question: '=SUM(A1:A2)', answer: '@cmd' },
    ],
  },
  rows: flattenContent({ topic: 'Biology', cards: [{ front: 'What does chlorophyll absorb?' }] }),
  seo: { title: 'Photosynthesis flashcards', description: 'Ten cards on light reactions', keywords: ['biology', 'photosynthesis'] },
  ai: { model: 'local-flashcards', isAiGenerated: true },
  analytics: { viewCount: 12, shareCount: 3, responseCount: 1 },
  responses: [{ id: 'r1', title: 'My notes', content: 'Light reactions make ATP.', wordCount: 4, createdAt: '2026-03-03T09:00:00.000Z' }],
  ...overrides,
});

const opts = (overrides: Partial<ExportOptions> = {}): ExportOptions => ({ ...DEFAULT_EXPORT_OPTIONS, ...overrides });

describe('flattenContent', () => {
  it('joins nested keys with dots and indexes arrays', () => {
    expect(flattenContent({ a: { b: 1, c: [true, { d: null }] }, e: [], f: 'x' })).toEqual([
      ['a.b', '1'],
      ['a.c.0', 'true'],
      ['a.c.1.d', ''],
      ['e', ''],
      ['f', 'x'],
    ]);
  });
});

describe('json', () => {
  it('has the spec body, responses only when asked', () => {
    const without = JSON.parse(renderJson(deck(), opts({ includeMetadata: false })).body.toString('utf8'));
    expect(without).toEqual({
      metadata: { tool: 'flashcards', title: 'Photosynthesis basics', createdAt: '2026-03-01T10:00:00.000Z', shareCode: 'fc_Ab12Cd34' },
      content: deck().content,
      analytics: { viewCount: 12, shareCount: 3, responseCount: 1 },
    });
    const withAll = JSON.parse(renderJson(deck(), opts({ includeResponses: true })).body.toString('utf8'));
    expect(withAll.responses).toEqual([expect.objectContaining({ title: 'My notes', wordCount: 4 })]);
    expect(withAll.metadata).toMatchObject({ aiModel: 'local-flashcards', keywords: ['biology', 'photosynthesis'] });
  });
});

describe('csv', () => {
  it('round-trips through an RFC 4180 parser with the fixed rows first and formulas neutralised', () => {
    const doc = deck({
      title: 'Commas, "quotes" and\r\nline breaks',
      rows: [
        ['cards.0.front', '=HYPERLINK("http://evil.test","x")'],
        ['cards.0.back', '+1+2'],
        ['cards.1.front', '-3'],
        ['cards.1.back', '@SUM(1)'],
        ['cards.2.front', '\tcmd'],
        ['cards.2.back', '\rcmd'],
        ['cards.3.front', 'safe = text'],
      ],
    });
    const out = renderCsv(doc, opts({ includeMetadata: false }));
    expect(out.contentType).toBe('text/csv; charset=utf-8');
    const text = out.body.toString('utf8');
    expect(text.startsWith('Field,Value\r\nTitle,"Commas, ""quotes"" and\r\nline breaks"\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['Field', 'Value'],
      ['Title', 'Commas, "quotes" and\r\nline breaks'],
      ['Created At', '2026-03-01T10:00:00.000Z'],
      ['Share Code', 'fc_Ab12Cd34'],
      ['View Count', '12'],
      ['cards.0.front', `'=HYPERLINK("http://evil.test","x")`],
      ['cards.0.back', "'+1+2"],
      ['cards.1.front', "'-3"],
      ['cards.1.back', "'@SUM(1)"],
      ['cards.2.front', "'\tcmd"],
      ['cards.2.back', "'\rcmd"],
      ['cards.3.front', 'safe = text'],
    ]);
  });

  it('adds metadata and response rows when asked', () => {
    const rows = parseCsv(renderCsv(deck(), opts({ includeResponses: true })).body.toString('utf8'));
    expect(rows).toContainEqual(['SEO Title', 'Photosynthesis flashcards']);
    expect(rows).toContainEqual(['Keywords', 'biology; photosynthesis']);
    expect(rows).toContainEqual(['Response 1 Content', 'Light reactions make ATP.']);
  });
});

describe('anki and quizlet', () => {
  it('writes Anki headers, a stable guid per card, quoted multi-line fields and a tags column', () => {
    const text = renderAnki(deck()).body.toString('utf8');
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      '#separator:tab',
      '#html:false',
      '#notetype:Basic',
      '#deck:Photosynthesis basics',
      '#columns:GUID\tFront\tBack\tTags',
      '#guid column:1',
      '#tags column:4',
    ]);
    const guid0 = cardGuid(deck().id, 0);
    expect(lines[7]).toBe(`${guid0}\tWhat does chlorophyll absorb?\tMostly red and blue light\tstory-tools deck-fc_ab12cd34 light pigments-101`);
    expect(lines[8]).toBe(`${cardGuid(deck().id, 1)}\tWhere does the Calvin cycle run?\t"In the stroma,`);
    expect(text).toContain('""the fluid"" of the chloroplast\tnot the thylakoid"\tstory-tools deck-fc_ab12cd34\n');
    // Same content and position: same guid on the next export (re-import updates); another deck differs.
    expect(renderAnki(deck()).body.equals(renderAnki(deck()).body)).toBe(true);
    expect(cardGuid(deck().id, 0)).not.toBe(cardGuid(deck().id, 1));
    expect(cardGuid('00000000-0000-4000-8000-000000000000', 0)).not.toBe(guid0);
    expect(guid0).toMatch(/^sf[A-Za-z0-9_-]{20}$/);
  });

  it('writes Quizlet term TAB definition lines with tabs and newlines flattened', () => {
    expect(renderQuizlet(deck()).body.toString('utf8')).toBe(
      'What does chlorophyll absorb?\tMostly red and blue light\n' +
        'Where does the Calvin cycle run?\tIn the stroma, "the fluid" of the chloroplast not the thylakoid\n' +
        '=SUM(A1:A2)\t@cmd\n',
    );
  });
});

describe('html', () => {
  it('is a standalone document with every user string escaped', () => {
    const doc = deck({ title: '<script>alert(1)</script>', content: { prompt: '<img src=x onerror=alert(1)> & "q"' } });
    const html = renderHtml(doc, opts({ theme: 'dark', fontSize: 14 })).body.toString('utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('font: 14pt/1.5');
    expect(html).toContain('background: #121417');
  });
});

describe('pdf', () => {
  it('is a real PDF with the text, in the page size asked', async () => {
    const a4 = await readPdf((await renderPdf(deck(), opts({ includeResponses: true }))).body);
    expect(a4.text).toContain('Photosynthesis basics');
    expect(a4.text).toContain('What does chlorophyll absorb?');
    expect(a4.text).toContain('Light reactions make ATP.');
    expect(Math.round(a4.width)).toBe(595);
    expect(Math.round(a4.height)).toBe(842);
    expect(a4.title).toBe('Photosynthesis basics');

    const letter = await readPdf((await renderPdf(deck(), opts({ pageSize: 'letter', theme: 'dark' }))).body);
    expect([Math.round(letter.width), Math.round(letter.height)]).toEqual([612, 792]);
  });

  it('paints the dark background on every page and spans pages for long content', async () => {
    const long = deck({ content: { paragraphs: Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1}: the tide came in over the old pier.`) } });
    const body = (await renderPdf(long, opts({ theme: 'dark', fontSize: 14 }))).body;
    const pdf = await readPdf(body);
    expect(pdf.pages).toBeGreaterThan(2);
    expect(pdf.text).toContain('Paragraph 120');
    expect(pdf.text).toContain('Paragraph 1:');
    // Every page's drawing starts with a full-page rectangle filled with the dark colour (#121417).
    const dark = '0.07058823529411765 0.0784313725490196 0.09019607843137255 scn';
    const pages = pdfStreams(body).filter((s) => / re\b/.test(s) || / Tj\b|TJ\b/.test(s));
    expect(pages.filter((s) => s.includes(dark))).toHaveLength(pdf.pages);
    const lightBody = (await renderPdf(long, opts({ fontSize: 8 }))).body;
    expect(pdfStreams(lightBody).some((s) => s.includes(dark))).toBe(false);
    const small = await readPdf(lightBody);
    expect(small.pages).toBeLessThan(pdf.pages);
  });

  it('prints Polish, Greek, Vietnamese and Chinese names exactly as written (embedded Unicode fonts, subset)', async () => {
    const names = ['Zażółć gęślą jaźń', 'Łódź', 'Καλημέρα', 'Nguyễn Thị Minh Khai', '王秀英'];
    const doc = deck({
      title: 'Café “naïve” 王秀英',
      content: { storyteller: '王秀英', cards: names.map((name, i) => ({ front: `Name ${i + 1}`, back: name })), note: 'For 王秀英 and Łódź.' },
    });
    const body = (await renderPdf(doc, opts())).body;
    const pdf = await readPdf(body);
    expect(pdf.title).toBe('Café “naïve” 王秀英');
    expect(pdf.text).toContain('Café “naïve” 王秀英');
    for (const name of names) expect(pdf.text).toContain(name);
    expect(pdf.text).toContain('Note: For 王秀英 and Łódź.');
    expect(pdf.text).not.toContain('?');
    // Only the glyphs used are embedded: a few faces and CJK pieces stay far below their full size.
    expect(body.length).toBeLessThan(150_000);
  });
});

describe('docx', () => {
  it('is Office Open XML holding the text, the page size and the theme', async () => {
    const out = await renderDocx(deck({ title: 'Tom & Jerry <3' }), opts({ includeResponses: true, pageSize: 'letter', theme: 'dark', fontSize: 13 }));
    expect(out.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const xml = await readZipEntry(out.body, 'word/document.xml');
    expect(xml).toContain('Tom &amp; Jerry &lt;3');
    expect(xml).toContain('What does chlorophyll absorb?');
    expect(xml).toContain('Light reactions make ATP.');
    expect(xml).toMatch(/<w:pgSz[^>]*w:w="12240"[^>]*w:h="15840"/);
    expect(xml).toMatch(/<w:background w:color="121417"/);
    const styles = await readZipEntry(out.body, 'word/styles.xml');
    expect(styles).toContain('w:val="26"'); // 13 pt in half-points
    const core = await readZipEntry(out.body, 'docProps/core.xml');
    expect(core).toContain('Tom &amp; Jerry &lt;3');
  });
});
