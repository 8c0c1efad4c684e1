// A book's interior and cover, typeset by Typst and checked before anyone may download them (CONTRACTS §11).
//
// Interior: the text is checked against the bundled fonts first (a character none of them draws stops the
// job, named). The gutter depends on the page count and the page count on the gutter, so the book is
// laid out with the gutter for the pages expected, and again when the count lands in another band (a
// wider gutter only adds pages, so this settles in two or three passes at most). Then TrimBox and
// BleedBox are written (Typst writes neither) and the preflight reads the finished file back.
//
// Cover: one spread, back + spine + front, bleed on every outer edge, spine width from the interior's
// page count and the paper; spine text only from 80 pages.
import { fontList, type TextStyle } from './fonts';
import { missingCharacters, type MissingCharacter } from './glyph-coverage';
import { setPrintBoxes, type Box } from './pdf-inspect';
import { preflightFailure, preflightPdf, type PageAllowance, type PreflightReport } from './preflight';
import { coverGeometry, gutterInches, interiorMargins, MAX_INTERIOR_PAGES, trimSizePoints, type CoverGeometry, type InteriorMargins, type Paper } from './print-geometry';
import { BOOK_COVER_TEMPLATE } from './templates/book-cover.typ';
import { BOOK_INTERIOR_TEMPLATE } from './templates/book-interior.typ';
import { languageOf, paragraphDirection, scriptOfLanguage, dominantScript, type Direction } from './text-language';
import { typesetter, type Typesetter } from './typst';

export interface PrintRun {
  text: string;
  bold: boolean;
  italic: boolean;
}

export type PrintBlock = { kind: 'paragraph'; runs: PrintRun[] } | { kind: 'item'; marker: string; depth: number; runs: PrintRun[] };

export type Align = 'left' | 'center' | 'right';

export interface PrintChapter {
  title: string;
  blocks: PrintBlock[];
  style: TextStyle;
  /** Body size in points and line height as a multiple of it (CSS sense). */
  size: number;
  lineHeight: number;
  header: { show: boolean; text: string | null; align: Align };
  footer: { show: boolean; text: string | null; align: Align; numbers: boolean; position: Align | 'outside' };
}

export interface PrintBook {
  title: string;
  subtitle: string | null;
  author: string | null;
  /** BCP 47 (en, pl, pt-BR, zh-Hant ...). */
  language: string;
  keywords: string[];
  trimSize: string;
  /** What the template asks for beyond CONTRACTS §11's minimums (inches). */
  margins?: Partial<InteriorMargins>;
  /** The year on the copyright page. */
  year?: number;
}

export interface InteriorOptions {
  /** The most pages this book may have and why (the tier's allowance); the print limit always applies. */
  maxPages?: PageAllowance | null;
  /** The print limit (MAX_INTERIOR_PAGES); tests lower it. */
  printLimit?: number;
  typesetter?: Typesetter;
}

export type BookResult =
  | { ok: true; pdf: Buffer; pages: number; preflight: PreflightReport; margins: InteriorMargins }
  | { ok: false; reason: string; preflight: PreflightReport };

/** Typst's language is an ISO 639 code, its region an ISO 3166 one: 'pt-BR' -> pt, BR; anything else -> en. */
export function typstLanguage(language: string): { lang: string; region: string | null } {
  const [lang = '', region = ''] = language.split(/[-_]/);
  return {
    lang: /^[a-z]{2,3}$/i.test(lang) ? lang.toLowerCase() : 'en',
    region: /^[a-z]{2}$/i.test(region) ? region.toUpperCase() : null,
  };
}

/**
 * A long unbroken token that hyphenation cannot split (a web address, digits, a run of symbols) gets
 * break opportunities (zero-width spaces after its separators and every 20 characters), so no line runs
 * past the margin. Words of letters are left to hyphenation unless they are absurdly long.
 */
const LONG_TOKEN = /\S{25,}/gu;
const WORD = /^[\p{L}\p{M}]+$/u;
const ZWSP = '\u200B';
export function breakable(text: string): string {
  return text.replace(LONG_TOKEN, (token) => {
    const letters = WORD.test(token);
    if (letters && token.length < 60) return token;
    const every = letters ? 30 : 20;
    const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(token)].map((s) => s.segment);
    let out = '';
    let since = 0;
    graphemes.forEach((g, i) => {
      out += g;
      since += 1;
      const last = i === graphemes.length - 1;
      if (!last && (since >= every || (!letters && /[/.\-_?&=,;:]/.test(g)))) {
        out += ZWSP;
        since = 0;
      }
    });
    return out;
  });
}

/** A running head fits one line: longer ones are cut at a word with an ellipsis (the width is a character budget). */
function runningTitle(text: string, budget: number): string {
  const chars = [...text];
  if (chars.length <= budget) return text;
  const cut = chars.slice(0, budget - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > budget / 2 ? atWord : cut).trimEnd()}…`;
}

const plain = (runs: readonly PrintRun[]) => runs.map((r) => r.text).join('');

interface BlockData {
  kind: 'paragraph' | 'item';
  /** Set in a script whose marks stand tall above and below the line (Arabic, Devanagari): lines are spaced by the font's full height. */
  tall: boolean;
  marker: string | null;
  depth: number;
  dir: Direction;
  lang: string | null;
  runs: PrintRun[];
}

function blockData(block: PrintBlock, bookLanguage: string): BlockData | null {
  const runs = block.runs.filter((r) => r.text.length > 0).map((r) => ({ ...r, text: breakable(r.text.normalize('NFC')) }));
  const text = plain(runs);
  if (!text.trim() && block.kind === 'paragraph') return null;
  const script = dominantScript(text);
  // A paragraph in another script than the book's is set in that script's language (shaping, line breaks, hyphenation).
  const lang = script && scriptOfLanguage(bookLanguage) !== script ? typstLanguage(languageOf(text, null)).lang : null;
  const tall = script === 'Arabic' || script === 'Devanagari';
  return { kind: block.kind, tall, marker: block.kind === 'item' ? block.marker : null, depth: block.kind === 'item' ? block.depth : 0, dir: paragraphDirection(text), lang: lang === 'und' ? null : lang, runs };
}

/** "Contents" and "Chapter" in the book's language (English for a language not listed). */
const LABELS: Record<string, { contents: string; chapter: string }> = {
  en: { contents: 'Contents', chapter: 'Chapter' },
  de: { contents: 'Inhalt', chapter: 'Kapitel' },
  fr: { contents: 'Table des matières', chapter: 'Chapitre' },
  es: { contents: 'Índice', chapter: 'Capítulo' },
  it: { contents: 'Indice', chapter: 'Capitolo' },
  pt: { contents: 'Sumário', chapter: 'Capítulo' },
  nl: { contents: 'Inhoud', chapter: 'Hoofdstuk' },
  pl: { contents: 'Spis treści', chapter: 'Rozdział' },
  el: { contents: 'Περιεχόμενα', chapter: 'Κεφάλαιο' },
  ru: { contents: 'Содержание', chapter: 'Глава' },
  uk: { contents: 'Зміст', chapter: 'Розділ' },
  vi: { contents: 'Mục lục', chapter: 'Chương' },
  ar: { contents: 'المحتويات', chapter: 'الفصل' },
  he: { contents: 'תוכן העניינים', chapter: 'פרק' },
  hi: { contents: 'विषय-सूची', chapter: 'अध्याय' },
  zh: { contents: '目录', chapter: '第' },
  ja: { contents: '目次', chapter: '第' },
  ko: { contents: '차례', chapter: '제' },
};
/** CJK put the number inside the word: 第 3 章, 제 3 장. */
const CHAPTER_SUFFIX: Record<string, string> = { zh: '章', ja: '章', ko: '장' };

function labelsFor(language: string): { contents: string; chapter: string; chapterSuffix: string } {
  const code = typstLanguage(language).lang;
  return { ...(LABELS[code] ?? LABELS['en']!), chapterSuffix: CHAPTER_SUFFIX[code] ?? '' };
}

function copyrightLines(book: PrintBook): string[] {
  const year = book.year ?? new Date().getUTCFullYear();
  const lines = [`${book.title}${book.subtitle ? `: ${book.subtitle}` : ''}`];
  lines.push(book.author ? `Copyright © ${year} ${book.author}. All rights reserved.` : `Copyright © ${year}. All rights reserved.`);
  lines.push('No part of this book may be reproduced without the written permission of the author, except for brief quotations.');
  lines.push('Made with Family Stories. Set in Noto Serif and the Noto and Scheherazade families for other scripts.');
  return lines;
}

/** Every string the interior prints, per body style, for the glyph check. */
function interiorText(book: PrintBook, chapters: readonly PrintChapter[]): Map<TextStyle, string> {
  const labels = labelsFor(book.language);
  const byStyle = new Map<TextStyle, string[]>([['serif', [book.title, book.subtitle ?? '', book.author ?? '', ...copyrightLines(book), labels.contents, labels.chapter, labels.chapterSuffix, '0123456789.…']]]);
  for (const ch of chapters) {
    const list = byStyle.get(ch.style) ?? [];
    list.push(ch.title, ...ch.blocks.flatMap((b) => [b.kind === 'item' ? b.marker : '', plain(b.runs)]));
    byStyle.set(ch.style, list);
    byStyle.get('serif')!.push(ch.title, ch.header.text ?? '', ch.footer.text ?? '');
  }
  return new Map([...byStyle].map(([style, parts]) => [style, parts.join('\n')]));
}

function missingIn(texts: Map<TextStyle, string>, language: string): MissingCharacter[] {
  const all = new Map<string, MissingCharacter>();
  for (const [style, text] of texts) {
    for (const m of missingCharacters(text, style, language)) {
      const known = all.get(m.char);
      if (known) known.count += m.count;
      else all.set(m.char, { ...m });
    }
  }
  return [...all.values()];
}

/** A report for a document that was never typeset (the glyph check stopped it). */
function refusedReport(missing: MissingCharacter[], problems: string[]): PreflightReport {
  return {
    passed: false,
    checkedAt: new Date().toISOString(),
    pages: 0,
    fonts: [],
    boxes: { mediaBox: null, trimBox: null, bleedBox: null, consistent: false },
    missingCharacters: missing.map(({ codePoint, name, char, count }) => ({ codePoint, name, char, count })),
    notdefGlyphs: 0,
    maxPages: null,
    problems,
  };
}

/** Glyph check, then the shared refusal sentence, for every document kind. */
export function glyphRefusal(missing: readonly MissingCharacter[]): string {
  const shown = missing.slice(0, 10).map((m) => `${m.codePoint} ${m.name} (“${m.char}”)`);
  const more = missing.length > 10 ? ` and ${missing.length - 10} more` : '';
  return `The text has ${missing.length === 1 ? 'a character' : 'characters'} no bundled font can print: ${shown.join(', ')}${more}. Remove or replace ${missing.length === 1 ? 'it' : 'them'} and export again.`;
}

function interiorData(book: PrintBook, chapters: readonly PrintChapter[], margins: InteriorMargins) {
  const [width, height] = trimSizePoints(book.trimSize);
  const { lang, region } = typstLanguage(book.language);
  const contentWidth = width - (margins.inside + margins.outside) * 72;
  // 8.5 pt italic averages about 0.45 em per character.
  const budget = Math.max(12, Math.floor(contentWidth / (8.5 * 0.45)));
  const titleText = book.title.normalize('NFC');
  return {
    book: {
      title: breakable(titleText),
      subtitle: book.subtitle ? breakable(book.subtitle.normalize('NFC')) : null,
      author: book.author ? book.author.normalize('NFC') : null,
      authors: book.author ? [book.author] : [],
      keywords: book.keywords,
      lang,
      region,
      dir: paragraphDirection(titleText + chapters.map((c) => c.title).join(' ')) === 'rtl' && scriptOfLanguage(book.language) !== 'Latin' ? 'rtl' : 'ltr',
      runningTitle: runningTitle(titleText, budget),
      copyright: copyrightLines(book),
    },
    page: { width, height, margins },
    fonts: { serif: fontList('serif', book.language), sans: fontList('sans', book.language), mono: fontList('mono', book.language) },
    labels: labelsFor(book.language),
    chapters: chapters.map((ch) => ({
      title: breakable(ch.title.normalize('NFC')),
      runningTitle: runningTitle(ch.title.normalize('NFC'), budget),
      family: ch.style,
      size: ch.size,
      // Typst's leading is the gap between lines; 1.4 (CSS) is Typst's own 0.65 em.
      leading: Math.max(0.3, ch.lineHeight - 0.75),
      header: { show: ch.header.show, text: ch.header.text ? runningTitle(ch.header.text, budget) : null, align: ch.header.align },
      footer: { show: ch.footer.show, text: ch.footer.text ? runningTitle(ch.footer.text, budget) : null, align: ch.footer.align, numbers: ch.footer.numbers, position: ch.footer.position },
      blocks: ch.blocks.map((b) => blockData(b, book.language)).filter((b): b is BlockData => b !== null),
    })),
  };
}

/** The interior, typeset, boxed and preflighted; or the reason it cannot be printed. */
export async function typesetInterior(book: PrintBook, chapters: readonly PrintChapter[], options: InteriorOptions = {}): Promise<BookResult> {
  const engine = options.typesetter ?? typesetter();
  const missing = missingIn(interiorText(book, chapters), book.language);
  if (missing.length) {
    const reason = glyphRefusal(missing);
    return { ok: false, reason, preflight: refusedReport(missing, [reason]) };
  }
  // First guess of the page count, so the gutter is right at the first pass: about 370 words a page at
  // 6x9 in 11 pt with 1.4 line height, scaled by the page area, the type size and the leading; half a page
  // per chapter for openings and blank left pages; four front pages.
  const [w, h] = trimSizePoints(book.trimSize);
  const area = (w * h) / (432 * 648);
  let expected = 4;
  for (const ch of chapters) {
    const words = ch.blocks.reduce((m, b) => m + plain(b.runs).split(/\s+/).length, 0);
    expected += 1 + words / (370 * area * (11 / ch.size) ** 2 * (1.4 / ch.lineHeight));
  }
  expected = Math.round(expected);
  let result: { pdf: Buffer; pages: number } | undefined;
  let margins = interiorMargins(expected, book.trimSize, book.margins);
  for (let pass = 0; pass < 4; pass++) {
    margins = interiorMargins(expected, book.trimSize, book.margins);
    result = await engine.typeset(BOOK_INTERIOR_TEMPLATE, interiorData(book, chapters, margins));
    if (gutterInches(result.pages) === gutterInches(expected)) break;
    expected = result.pages;
  }
  if (!result) throw new Error('the interior was not typeset');
  const printLimit = options.printLimit ?? MAX_INTERIOR_PAGES;
  if (result.pages > printLimit) {
    const reason = `The interior has ${result.pages} pages; a printed book may have at most ${printLimit}. Split it into volumes (two books) and export each.`;
    return { ok: false, reason, preflight: refusedReport([], [reason]) };
  }
  const trimBox: Box = [0, 0, w, h];
  const pdf = await setPrintBoxes(result.pdf, { trimBox });
  const preflight = await preflightPdf(pdf, { trimBox, maxPages: options.maxPages ?? null, label: 'interior' });
  if (!preflight.passed) return { ok: false, reason: preflightFailure(preflight), preflight };
  return { ok: true, pdf, pages: result.pages, preflight, margins };
}

export interface CoverStyle {
  background: string;
  textColor: string;
  style: TextStyle;
}

export type CoverResult =
  | { ok: true; pdf: Buffer; geometry: CoverGeometry; preflight: PreflightReport }
  | { ok: false; reason: string; preflight: PreflightReport };

/** The cover spread for an interior of `interiorPages` pages on `paper`. */
export async function typesetCover(book: PrintBook, style: CoverStyle, interiorPages: number, paper: Paper, engine: Typesetter = typesetter()): Promise<CoverResult> {
  const texts = new Map<TextStyle, string>([[style.style, [book.title, book.subtitle ?? '', book.author ?? ''].join('\n')]]);
  const missing = missingIn(texts, book.language);
  if (missing.length) {
    const reason = glyphRefusal(missing);
    return { ok: false, reason, preflight: refusedReport(missing, [reason]) };
  }
  const geometry = coverGeometry(book.trimSize, interiorPages, paper);
  const { lang, region } = typstLanguage(book.language);
  const result = await engine.typeset(BOOK_COVER_TEMPLATE, {
    book: {
      title: breakable(book.title.normalize('NFC')),
      subtitle: book.subtitle ? breakable(book.subtitle.normalize('NFC')) : null,
      author: book.author?.normalize('NFC') ?? null,
      authors: book.author ? [book.author] : [],
      lang,
      region,
      dir: paragraphDirection(book.title),
      spineTitle: runningTitle(book.title.normalize('NFC'), 60),
    },
    geometry,
    colors: { background: style.background, text: style.textColor },
    font: fontList(style.style, book.language),
  });
  const pdf = await setPrintBoxes(result.pdf, { trimBox: geometry.trimBox, bleedBox: geometry.bleedBox });
  const preflight = await preflightPdf(pdf, { trimBox: geometry.trimBox, bleedBox: geometry.bleedBox, label: 'cover' });
  if (!preflight.passed) return { ok: false, reason: preflightFailure(preflight), preflight };
  return { ok: true, pdf, geometry, preflight };
}
