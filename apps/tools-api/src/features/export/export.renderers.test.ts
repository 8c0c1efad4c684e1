// The renderers alone: each file is opened with a real reader (PDF.js, a zip reader, an RFC 4180 parser).
import { parseCsv, readPdf, readZipEntry } from '../../test/export-readers';
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

/** Anki's text format as Anki reads it: '#' header lines, then tab-separated records whose fields may be quoted (tabs, newlines, doubled quotes inside). */
function ankiRows(text: string): string[][] {
  const body = text.split('\n').filter((l) => !l.startsWith('#')).join('\n');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '"' && field === '') {
      let j = i + 1;
      for (; j < body.length; j++) {
        if (body[j] === '"' && body[j + 1] === '"') {
          field += '"';
          j++;
        } else if (body[j] === '"') break;
        else field += body[j];
      }
      i = j;
    } else if (c === '\t') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

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
    // A field a spreadsheet would run as a formula is guarded like a CSV cell.
    expect(lines[10]).toBe(`${cardGuid(deck().id, 2)}\t'=SUM(A1:A2)\t'@cmd\tstory-tools deck-fc_ab12cd34`);
  });

  it('guards every formula start (= + - @ tab CR) in both study-app formats, multi-line fields included', () => {
    const hostile = ['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];
    const doc = deck({ content: { cards: hostile.map((h) => ({ front: h, back: `${h}\nsecond line` })) } });
    const anki = renderAnki(doc).body.toString('utf8');
    const quizlet = renderQuizlet(doc).body.toString('utf8');
    for (const line of quizlet.trimEnd().split('\n')) for (const field of line.split('\t')) expect(field).toMatch(/^'/);
    const rows = ankiRows(anki);
    expect(rows).toHaveLength(hostile.length);
    rows.forEach(([, front, back], i) => {
      expect(front).toBe(`'${hostile[i]}`);
      expect(back).toBe(`'${hostile[i]}\nsecond line`);
    });
  });

  it('writes Quizlet term TAB definition lines with tabs and newlines flattened', () => {
    expect(renderQuizlet(deck()).body.toString('utf8')).toBe(
      'What does chlorophyll absorb?\tMostly red and blue light\n' +
        'Where does the Calvin cycle run?\tIn the stroma, "the fluid" of the chloroplast not the thylakoid\n' +
        // Formula-guarded like the CSV export: a spreadsheet opening the file shows text, runs nothing.
        "'=SUM(A1:A2)\t'@cmd\n",
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
    // Every page is painted edge to edge (the dark colour, #121417); a light page carries only its text.
    for (const ink of pdf.ink) expect(ink).toEqual([0, 0, pdf.width, pdf.height]);
    const lightBody = (await renderPdf(long, opts({ fontSize: 8 }))).body;
    const small = await readPdf(lightBody);
    for (const ink of small.ink) expect(ink![0]).toBeGreaterThan(40);
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

describe('flashcard decks in documents', () => {
  it('list each card front before back, whatever the stored key order, without internal fields', async () => {
    const doc = deck({
      content: {
        title: 'Tide pools',
        deckName: 'Tide pools',
        sourceType: 'text',
        cards: [
          { kind: 'definition', back: 'A rocky pool left by the ebbing tide.', id: 'c1a2b3', front: 'What is a tide pool?' },
          { id: 'c9d8e7', kind: 'cloze', hint: 'n… (11 letters)', back: 'nematocysts', front: 'Anemones sting with _____' },
        ],
      },
    });
    const pdf = (await readPdf((await renderPdf(doc, opts())).body)).text;
    const html = renderHtml(doc, opts()).body.toString('utf8');
    const docx = await readZipEntry((await renderDocx(doc, opts())).body, 'word/document.xml');
    for (const text of [pdf, html.replace(/<[^>]+>/g, ' '), docx.replace(/<[^>]+>/g, ' ')]) {
      const flat = text.replace(/\s+/g, ' ');
      const front = flat.indexOf('What is a tide pool?');
      const back = flat.indexOf('A rocky pool left by the ebbing tide.');
      expect(front).toBeGreaterThan(-1);
      expect(back).toBeGreaterThan(front);
      expect(flat.indexOf('Anemones sting with _____')).toBeLessThan(flat.indexOf('nematocysts'));
      expect(flat).toContain('n… (11 letters)');
      for (const internal of ['c1a2b3', 'c9d8e7', 'definition', 'cloze', 'Source Type', 'Kind']) expect(flat).not.toContain(internal);
    }
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
