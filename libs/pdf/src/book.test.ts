// Book interiors and covers read back by an independent reader (MuPDF's WebAssembly build, in its own
// process): names in every script drawn with real glyphs and extracted back, right-to-left order, page
// boxes, spine widths, nothing outside the trim, the book's structure, and refusals that name the reason.
// Pages are rendered to PNG under test-artefacts/pdf/ for a person to look at.
import { artefactDir, readPdfWithMupdf, type MupdfDocument, type MupdfPage, type Rect } from '@story/testing';
import { typesetCover, typesetInterior, type PrintBook, type PrintChapter } from './book';
import { COVER_BLEED_INCHES, PAGE_THICKNESS_INCHES, TRIM_SIZES_INCHES } from './print-geometry';
import { typesetter } from './typst';

afterAll(() => typesetter().close());

const ART = artefactDir('pdf');

const NAMES = {
  polish: 'Zażółć gęślą jaźń',
  greek: 'Καλημέρα Ελένη',
  cyrillic: 'Анна Жукова',
  vietnamese: 'Nguyễn Thị Minh Khai',
  simplified: '王秀英',
  traditional: '陳國華',
  japanese: '山田はなこ',
  korean: '김민준',
  arabic: 'سلمى الحسيني',
  hebrew: 'שרה כהן',
  devanagari: 'राम प्रसाद',
  emoji: '👵🌻',
};

/** The font that must draw each script (PostScript name stem). */
const FONT_OF: Record<keyof typeof NAMES, RegExp> = {
  polish: /NotoSerif-/,
  greek: /NotoSerif-/,
  cyrillic: /NotoSerif-/,
  vietnamese: /NotoSerif-/,
  simplified: /NotoSerifSC-/,
  traditional: /NotoSerifSC-/,
  japanese: /NotoSerifSC-/,
  korean: /NotoSerifKR-/,
  arabic: /ScheherazadeNew-/,
  hebrew: /NotoSerifHebrew-/,
  devanagari: /NotoSerifDevanagari-/,
  emoji: /NotoEmoji-/,
};

const run = (text: string, bold = false, italic = false) => ({ text, bold, italic });
const para = (text: string) => ({ kind: 'paragraph' as const, runs: [run(text)] });
const GERMAN = 'Im Herbst halfen alle Nachbarn bei der Kartoffelernte, und abends erzählte die Großmutter von Eisenbahnunterführungen, Versicherungsvertretern, Donaudampfschifffahrtsgesellschaften und Gemeindeverwaltungen.';
const LOREM = 'The harvest came in late that year and everyone helped to bring it home before the autumn rain, working through the long evenings with lanterns hung from the beams of the old barn.';

function chapter(title: string, blocks: PrintChapter['blocks'], extra: Partial<PrintChapter> = {}): PrintChapter {
  return {
    title,
    blocks,
    style: 'serif',
    size: 11,
    lineHeight: 1.4,
    header: { show: true, text: null, align: 'center' },
    footer: { show: true, text: null, align: 'center', numbers: true, position: 'outside' },
    ...extra,
  };
}

const BOOK: PrintBook = { title: 'The Miller Family', subtitle: 'Stories from the farm', author: 'Rose Miller', language: 'en', keywords: ['family'], trimSize: '6x9', year: 2026 };

/** Lines of a page without the running head and the page number (above and below the text area). */
function bodyLines(page: MupdfPage, top: number, bottom: number) {
  return page.lines.filter((l) => l.bbox[3] > top && l.bbox[1] < bottom && l.text.trim());
}

function within(inner: Rect | null, outer: Rect, slack = 0.01): boolean {
  return !inner || (inner[0] >= outer[0] - slack && inner[1] >= outer[1] - slack && inner[2] <= outer[2] + slack && inner[3] <= outer[3] + slack);
}

describe('every script a family writes in', () => {
  let doc: MupdfDocument;
  let opening: MupdfPage;

  beforeAll(async () => {
    const names = Object.values(NAMES);
    const result = await typesetInterior(BOOK, [
      chapter('Names', [
        ...Object.entries(NAMES).map(([script, name]) => para(`${script}: ${name} is in this family.`)),
        para(`Grandmother ${NAMES.arabic} was born in Haifa.`),
        para('وُلدت جدتي سلمى في حيفا عام ١٩٣١، وكانت تحب البحر كثيرا.'),
        { kind: 'paragraph', runs: [run('Bold: '), run(names.join(' '), true)] },
      ]),
    ]);
    if (!result.ok) throw new Error(result.reason);
    doc = await readPdfWithMupdf(result.pdf, { render: [0, 2, 4], artefactDir: ART, name: 'scripts-6x9' });
    opening = doc.pages.find((p) => p.text.includes('Chapter 1'))!;
  });

  it.each(Object.keys(NAMES) as (keyof typeof NAMES)[])('draws the %s name with real glyphs of its font and extracts it back', (script) => {
    const name = NAMES[script];
    const line = opening.lines.find((l) => l.text.startsWith(`${script}:`));
    expect(line).toBeDefined();
    // Right-to-left names come out in visual order (the later word leftmost), each word in reading order.
    const expected = script === 'arabic' || script === 'hebrew' ? name.split(' ').reverse().join(' ') : name;
    const [x0, y0, x1, y1] = line!.bbox;
    // MuPDF's text extraction leaves emoji out; its glyph walk gives their Unicode from the PDF's text layer (ToUnicode).
    const extracted = script === 'emoji' ? opening.glyphs.filter((g) => g.y >= y0 && g.y <= y1 + 1).map((g) => g.char).join('') : line!.text.replace(/\s+/g, ' ');
    expect(extracted).toContain(expected);
    const glyphs = opening.glyphs.filter((g) => g.y >= y0 && g.y <= y1 + 1 && g.x >= x0 - 1 && g.x <= x1 + 1 && [...name].includes(g.char) && g.char.trim());
    expect(glyphs.length).toBeGreaterThan(0);
    for (const g of glyphs) {
      expect(g.gid).not.toBe(0);
      if (!/[\p{Script=Latin}\s]/u.test(g.char)) expect(g.font).toMatch(FONT_OF[script]);
    }
  });

  it('draws every script in bold too, with the bold face of its font', () => {
    const start = opening.lines.findIndex((l) => l.text.startsWith('Bold:'));
    expect(start).toBeGreaterThan(-1);
    const lines = opening.lines.slice(start);
    const top = lines[0]!.bbox[1];
    const bottom = Math.max(...lines.map((l) => l.bbox[3]));
    const bold = opening.glyphs.filter((g) => g.y >= top && g.y <= bottom + 1 && g.char.trim() && !/[\p{Script=Latin}:]/u.test(g.char));
    for (const script of ['simplified', 'korean', 'arabic', 'hebrew', 'devanagari', 'emoji', 'greek', 'cyrillic'] as const) {
      const glyphs = bold.filter((g) => [...NAMES[script]].includes(g.char));
      expect(glyphs.length).toBeGreaterThan(0);
      for (const g of glyphs) expect(g.font).toMatch(new RegExp(`${FONT_OF[script].source.replace('-', '')}-Bold`));
    }
  });

  it('never draws an empty box (glyph 0) anywhere in the book', () => {
    for (const page of doc.pages) expect(page.glyphs.filter((g) => g.gid === 0)).toEqual([]);
  });

  it('keeps a right-to-left name in its place inside a left-to-right sentence, its words right to left', () => {
    const line = opening.lines.find((l) => l.text.startsWith('Grandmother'))!;
    const [x0, y0, x1, y1] = line.bbox;
    const onLine = opening.glyphs.filter((g) => g.y >= y0 && g.y <= y1 + 1 && g.x >= x0 - 1 && g.x <= x1 + 1);
    const xOf = (char: string, from = 0) => onLine.filter((g) => g.char === char && g.x >= from).map((g) => g.x);
    const grandmother = Math.max(...xOf('G'));
    const was = Math.min(...onLine.filter((g) => g.char === 'w').map((g) => g.x));
    const arabic = onLine.filter((g) => /\p{Script=Arabic}/u.test(g.char));
    expect(arabic.length).toBeGreaterThan(8);
    for (const g of arabic) {
      expect(g.x).toBeGreaterThan(grandmother);
      expect(g.x).toBeLessThan(was);
    }
    // سلمى (the first word read) stands right of الحسيني (the second).
    const salma = Math.min(...arabic.filter((g) => g.char === 'س' || g.char === 'م').map((g) => g.x).filter((x) => x > Math.max(...arabic.filter((a) => a.char === 'ح').map((a) => a.x))));
    const husseini = Math.max(...arabic.filter((g) => g.char === 'ح').map((g) => g.x));
    expect(salma).toBeGreaterThan(husseini);
  });

  it('sets an Arabic paragraph right to left: it starts at the right margin and its first word is rightmost', () => {
    const line = opening.lines.find((l) => l.text.includes('حيفا') && !l.text.includes('Grandmother'))!;
    expect(line).toBeDefined();
    // Its first line is indented 1.2 em from the right margin, as a left-to-right one is from the left.
    const rightMargin = opening.trimBox[2] - 0.625 * 72;
    expect(line.bbox[2]).toBeGreaterThan(rightMargin - 1.2 * 11 - 3);
    expect(line.bbox[2]).toBeLessThan(rightMargin + 1);
    expect(line.bbox[0]).toBeGreaterThan(opening.trimBox[2] / 2);
    // Visual order: the extracted line ends with the first word of the sentence (ولدت, read first, drawn rightmost).
    expect(line.text.trim().replace(/[\u064B-\u065F]/g, '')).toMatch(/ولدت$/);
  });

  it('keeps all ink inside the trim and all text inside the margins', () => {
    const [w, h] = [6 * 72, 9 * 72];
    doc.pages.forEach((page, i) => {
      expect(page.trimBox).toEqual([0, 0, w, h]);
      expect(page.mediaBox).toEqual([0, 0, w, h]);
      expect(within(page.ink, [0, 0, w, h])).toBe(true);
      // Body text stays within the outside margin (0.625 in) and the gutter (0.375 in) whichever side it is on.
      const [left, right] = i % 2 === 0 ? [0.375 * 72, w - 0.625 * 72] : [0.625 * 72, w - 0.375 * 72];
      if (page.textInk) {
        expect(page.textInk[0]).toBeGreaterThanOrEqual(left - 2);
        expect(page.textInk[2]).toBeLessThanOrEqual(right + 2);
      }
    });
  });
});

describe('the interior is a book', () => {
  let doc: MupdfDocument;
  let chapterStarts: number[];

  beforeAll(async () => {
    // Paragraphs of varied length, so page breaks fall inside paragraphs at many points.
    const paragraphs = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => para(`${prefix}${i + 1}: ${GERMAN.slice(0, 60 + ((i * 37) % 140))} ${i % 3 === 0 ? GERMAN : ''}`));
    const result = await typesetInterior({ ...BOOK, language: 'de', title: 'Die Familie Müller' }, [
      chapter('Geboren im Schnee', [para('A0: Unsere Großmutter erzählte von Donaudampfschifffahrtsgesellschaftskapitänen, Eisenbahnunterführungen und Versicherungsvertretern.'), ...paragraphs('A', 40)]),
      chapter('Der Bauernhof', paragraphs('B', 3)),
      chapter('Hochzeit', paragraphs('C', 25), { header: { show: true, text: 'Eine Hochzeit im Juni', align: 'center' } }),
    ]);
    if (!result.ok) throw new Error(result.reason);
    doc = await readPdfWithMupdf(result.pdf, { render: [0, 1, 2, 3, 4, 5], artefactDir: ART, name: 'book-de-6x9' });
    chapterStarts = doc.pages.map((p, i) => (/^Kapitel \d/m.test(p.text) ? i : -1)).filter((i) => i >= 0);
  });

  it('has a title page, a copyright page and contents naming the page each chapter opens on', () => {
    expect(doc.title).toBe('Die Familie Müller');
    expect(doc.author).toBe('Rose Miller');
    expect(doc.pages[0]!.text).toContain('Die Familie Müller');
    expect(doc.pages[0]!.text).toContain('Rose Miller');
    expect(doc.pages[1]!.text).toMatch(/Copyright © 2026 Rose Miller/);
    const toc = doc.pages[2]!.text;
    expect(toc).toContain('Inhalt');
    expect(chapterStarts).toHaveLength(3);
    ['Geboren im Schnee', 'Der Bauernhof', 'Hochzeit'].forEach((title, i) => {
      const m = new RegExp(`${i + 1}\\.\\s*${title}[ .]*\\s(\\d+)`).exec(toc);
      expect(m).not.toBeNull();
      expect(Number(m![1])).toBe(chapterStarts[i]! + 1);
      expect(doc.pages[chapterStarts[i]!]!.text).toContain(title);
    });
  });

  it('opens every chapter on a right-hand page, with blank left pages before where needed', () => {
    for (const start of chapterStarts) {
      expect((start + 1) % 2).toBe(1);
      const before = doc.pages[start - 1]!;
      if (!before.text.trim()) expect(before.ink).toBeNull();
    }
    expect(doc.pages.some((p) => p.ink === null)).toBe(true);
  });

  it('prints running heads (book title left, chapter title right, none on openings) and page numbers on the outside', () => {
    const h = 9 * 72;
    for (const [i, page] of doc.pages.entries()) {
      const number = i + 1;
      const head = page.lines.filter((l) => l.bbox[3] < 0.75 * 72 - 4).map((l) => l.text.trim()).join(' ');
      const foot = page.lines.filter((l) => l.bbox[1] > h - 0.75 * 72 + 4);
      if (i < 2 || page.ink === null) {
        expect(head).toBe('');
        continue;
      }
      const numberLine = foot.find((l) => l.text.trim() === String(number));
      expect(numberLine).toBeDefined();
      // Outside edge: right on odd pages, left on even ones.
      if (number % 2 === 1) expect(numberLine!.bbox[0]).toBeGreaterThan(6 * 72 / 2);
      else expect(numberLine!.bbox[2]).toBeLessThan(6 * 72 / 2);
      if (chapterStarts.includes(i) || i === 2) expect(head).toBe('');
      else {
        const chapterIndex = chapterStarts.filter((s) => s < i).length - 1;
        const expected = chapterIndex === 2 ? 'Eine Hochzeit im Juni' : number % 2 === 0 ? 'Die Familie Müller' : ['Geboren im Schnee', 'Der Bauernhof', 'Hochzeit'][chapterIndex]!;
        expect(head).toBe(expected);
      }
    }
  });

  it('hyphenates in the book language (German) and leaves no widow or orphan line', () => {
    // Typst marks a hyphenation as a soft hyphen in the text layer.
    const hyphenated = doc.pages.flatMap((p) => p.lines).filter((l) => /\p{L}[-‐\u00AD]$/u.test(l.text.trimEnd()));
    expect(hyphenated.length).toBeGreaterThan(3);
    const top = 0.75 * 72;
    const bottom = 9 * 72 - 0.75 * 72;
    // A line that begins a paragraph (every paragraph here starts with its label) or a chapter heading.
    const starts = (text: string) => /^([ABC]\d+:|Kapitel \d)/.test(text.trim());
    for (let i = 0; i + 1 < doc.pages.length; i++) {
      const here = bodyLines(doc.pages[i]!, top, bottom);
      const next = bodyLines(doc.pages[i + 1]!, top, bottom);
      if (!here.length || !next.length) continue;
      const last = here[here.length - 1]!;
      // Orphan: a paragraph's first line alone at the foot of a page, the rest on the next.
      if (starts(last.text) && !starts(next[0]!.text)) throw new Error(`orphan at the foot of page ${i + 1}: ${last.text}`);
      // Widow: a paragraph's last line alone at the head of the next page.
      if (!starts(next[0]!.text) && (next.length === 1 || starts(next[1]!.text))) throw new Error(`widow at the head of page ${i + 2}: ${next[0]!.text}`);
    }
  });
});

describe('a right-to-left book', () => {
  it('is bound on the right: gutter, page numbers and paragraphs mirror, in Arabic script throughout', async () => {
    const arabic = 'وُلدت جدتي سلمى في حيفا عام ١٩٣١، وكانت تحب البحر والخبز الطازج كل صباح، وتحكي لنا عن أيام الصيد مع أبيها.';
    const result = await typesetInterior({ ...BOOK, language: 'ar', title: 'عائلة الحسيني', subtitle: null, author: 'سلمى الحسيني' }, [
      chapter('البحر', Array.from({ length: 40 }, (_, i) => para(`${i + 1}. ${arabic}`))),
    ]);
    if (!result.ok) throw new Error(result.reason);
    const doc = await readPdfWithMupdf(result.pdf, { render: [4, 5], artefactDir: ART, name: 'book-ar-6x9' });
    const w = 432;
    for (const [i, page] of doc.pages.entries()) {
      if (i < 4 || !page.textInk) continue;
      const number = i + 1;
      const numberLine = page.lines.find((l) => l.text.trim() === String(number) && l.bbox[1] > 648 - 54);
      expect(numberLine).toBeDefined();
      // Odd pages lie left of the spine in a right-bound book: outside edge left, gutter right.
      if (number % 2 === 1) expect(numberLine!.bbox[2]).toBeLessThan(w / 2);
      else expect(numberLine!.bbox[0]).toBeGreaterThan(w / 2);
      const body = page.lines.filter((l) => l.bbox[1] > 54 && l.bbox[3] < 648 - 54 && /\p{Script=Arabic}/u.test(l.text));
      const right = Math.max(...body.map((l) => l.bbox[2]));
      // The gutter (0.375 in) on the right of odd pages, the outside margin (0.625 in) on the right of even ones.
      if (number % 2 === 1) expect(right).toBeGreaterThan(w - 0.375 * 72 - 3);
      else expect(right).toBeLessThan(w - 0.625 * 72 + 1);
    }
  });
});

describe('print geometry', () => {
  it.each(Object.keys(TRIM_SIZES_INCHES))('sets MediaBox = TrimBox = BleedBox at trim size %s, ink inside', async (trimSize) => {
    const result = await typesetInterior({ ...BOOK, trimSize }, [chapter('One', [para(LOREM), para(LOREM)])]);
    if (!result.ok) throw new Error(result.reason);
    const [w, h] = TRIM_SIZES_INCHES[trimSize as keyof typeof TRIM_SIZES_INCHES].map((v) => v * 72) as [number, number];
    expect(result.preflight).toMatchObject({ passed: true, boxes: { consistent: true } });
    const doc = await readPdfWithMupdf(result.pdf, { glyphs: false });
    for (const page of doc.pages) {
      expect(page.mediaBox).toEqual([0, 0, w, h]);
      expect(page.trimBox).toEqual([0, 0, w, h]);
      expect(page.bleedBox).toEqual([0, 0, w, h]);
      expect(within(page.ink, [0, 0, w, h])).toBe(true);
    }
  });

  it('widens the gutter with the page count (0.375 in to 150 pages, 0.5 in beyond)', async () => {
    const long = Array.from({ length: 14 }, (_, c) => chapter(`Part ${c + 1}`, Array.from({ length: 60 }, (_, i) => para(`${i}: ${LOREM} ${LOREM}`))));
    const result = await typesetInterior(BOOK, long);
    if (!result.ok) throw new Error(result.reason);
    expect(result.pages).toBeGreaterThan(150);
    expect(result.pages).toBeLessThanOrEqual(300);
    expect(result.margins.inside).toBe(0.5);
    const doc = await readPdfWithMupdf(result.pdf, { glyphs: false });
    // A right-hand body page: the gutter is on the left.
    const recto = doc.pages.find((p, i) => i % 2 === 0 && i > 10 && p.text.length > 500)!;
    expect(recto.textInk![0]).toBeGreaterThan(0.5 * 72 - 2);
    expect(recto.textInk![0]).toBeLessThan(0.5 * 72 + 4);
  });

  it.each([
    [100, 'white' as const],
    [400, 'cream' as const],
  ])('makes a cover spread for %i pages on %s paper: spine width, TrimBox, BleedBox, spine text', async (pages, paper) => {
    const result = await typesetCover({ ...BOOK, title: 'Rodzina 王秀英' }, { background: '#1f2a44', textColor: '#f4ecd8', style: 'serif' }, pages, paper);
    if (!result.ok) throw new Error(result.reason);
    const spine = pages * PAGE_THICKNESS_INCHES[paper] * 72;
    const bleed = COVER_BLEED_INCHES * 72;
    const trimW = 2 * 432 + spine;
    expect(result.geometry.spineWidth).toBeCloseTo(spine, 6);
    const doc = await readPdfWithMupdf(result.pdf, { render: [0], artefactDir: ART, name: `cover-${pages}-${paper}` });
    const [page] = doc.pages;
    const close = (a: Rect, b: Rect) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 2));
    close(page!.trimBox, [bleed, bleed, bleed + trimW, bleed + 648]);
    close(page!.bleedBox, [0, 0, trimW + 2 * bleed, 648 + 2 * bleed]);
    close(page!.mediaBox, page!.bleedBox);
    // The background runs into the bleed; every letter stays inside the trim.
    close(page!.ink!, page!.bleedBox);
    expect(within(page!.textInk, page!.trimBox)).toBe(true);
    // Spine text: glyphs between the folds.
    const onSpine = page!.glyphs.filter((g) => g.x > bleed + 432 && g.x < bleed + 432 + spine);
    expect(onSpine.length).toBeGreaterThan(5);
    expect(page!.text).toContain('Rodzina 王秀英');
    expect(page!.glyphs.every((g) => g.gid !== 0)).toBe(true);
  });

  it('leaves the spine bare below 80 pages', async () => {
    const result = await typesetCover(BOOK, { background: '#ffffff', textColor: '#000000', style: 'sans' }, 60, 'white');
    if (!result.ok) throw new Error(result.reason);
    expect(result.geometry.spineText).toBe(false);
    const doc = await readPdfWithMupdf(result.pdf);
    const spine = result.geometry.spineWidth;
    expect(doc.pages[0]!.glyphs.filter((g) => g.x > 9 + 432 - 1 && g.x < 9 + 432 + spine + 1)).toEqual([]);
  });
});

describe('refusals name the reason', () => {
  it('refuses a story in a script no bundled font covers, naming the characters, and typesets nothing', async () => {
    const result = await typesetInterior(BOOK, [chapter('ยาย', [para('สวัสดีครับ from Bangkok')])]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('U+0E22 THAI CHARACTER YO YAK');
    expect(result.reason).toContain('U+0E2A THAI CHARACTER SO SUA');
    expect(result.preflight).toMatchObject({ passed: false, pages: 0 });
    expect(result.preflight.missingCharacters.map((m) => m.codePoint)).toContain('U+0E2A');
  });

  it('refuses a book longer than the print limit, naming the page count', async () => {
    const result = await typesetInterior(BOOK, [chapter('Long', Array.from({ length: 60 }, () => para(LOREM)))], { printLimit: 5 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/^The interior has \d+ pages; a printed book may have at most 5\./);
  });

  it('fails the preflight over the page allowance, with the reason given', async () => {
    const result = await typesetInterior(BOOK, [chapter('One', [para(LOREM)])], { maxPages: { pages: 3, reason: () => 'Your free plan allows 3 book pages.' } });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toMatch(/^The interior has \d+ pages\. Your free plan allows 3 book pages\.$/);
      expect(result.preflight.passed).toBe(false);
      expect(result.preflight.fonts.every((f) => f.embedded && f.subset && f.bundled)).toBe(true);
    }
  });
});

describe('user text is never Typst markup or code', () => {
  const HOSTILE = [
    '#import "@preview/cetz:0.3.0": *',
    '#read("/etc/passwd")',
    '#panic("boom")',
    '$x^2$ *bold* _em_ ] [ \\ // not a comment @ref <label> `raw` ``` = heading',
    '#set page(width: 1pt) #pagebreak() #{ 1 + 1 } #let x = 1',
  ];

  it('prints hostile text literally in titles, headings, running heads and paragraphs', async () => {
    const result = await typesetInterior({ ...BOOK, title: HOSTILE[0]!, subtitle: HOSTILE[3]!, author: '@admin <x> #y' }, [
      chapter(HOSTILE[1]!, HOSTILE.map(para), { header: { show: true, text: HOSTILE[4]!.slice(0, 40), align: 'center' } }),
      chapter(HOSTILE[2]!, [para(LOREM)]),
    ]);
    if (!result.ok) throw new Error(result.reason);
    const doc = await readPdfWithMupdf(result.pdf, { glyphs: false });
    const all = doc.pages.map((p) => p.text).join('\n').replace(/\u200B/g, '');
    const flat = all.replace(/\s+/g, '');
    for (const text of HOSTILE) expect(flat).toContain(text.replace(/\s+/g, ''));
    expect(doc.title).toBe(HOSTILE[0]);
    expect(doc.pages[0]!.mediaBox).toEqual([0, 0, 432, 648]);
    expect(all).not.toContain('root:');
  });
});
