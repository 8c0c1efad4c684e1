// The book interior renderer as it was before Typst (pdfkit, DejaVu and Source Han Serif), kept only as the
// same-run baseline of bench/book-pdf: the figures of the new path are read against it. Not used by any service.
// Print-ready PDFs of a book with pdfkit: the interior (title page, table of contents with page
// numbers, each chapter in its story's typography, running header and footer, page numbers) and the
// cover, both at the book's trim size (inches x 72 points).
//
// The table of contents needs the page each chapter starts on before those pages exist, and the
// output is streamed page by page (no bufferPages, which would hold the whole book until the end).
// So the interior is laid out in one pass in this order: the chapters first, numbered as if the
// front matter preceded them, then the title page and the contents, whose numbers are known by
// then. The document's page tree (a small list of references, written only when the document ends)
// is then reordered so the front matter comes first. How many pages the contents take depends only
// on the chapter titles, so it is measured beforehand on a throwaway document.
//
// Text goes through @story/pdf (shared with the tools exports): DejaVu and Source Han Serif from npm,
// embedded as subsets, so names and words in any script print as written.
import { newPdfDocument } from './pdf-document';
import { createPdfText, type FontFamily, type FontStyle, type PdfText } from './unicode-text';
import type { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ContentBlock, TextRun } from '../../../apps/core-api/src/features/stories/story-content';
import { FONT_FAMILIES, type HeaderFooter, type StandardFamily, type Typography } from '../../../apps/core-api/src/features/stories/story-layout';

export interface RenderChapter {
  title: string;
  blocks: ContentBlock[];
  typography: Typography;
  headerFooter: HeaderFooter;
}

export interface BookForPrint {
  title: string;
  subtitle: string | null;
  author: string | null;
  trimSize: string;
  language: string;
  keywords: string[];
  /** Inches; defaults suit every supported trim size. */
  margins?: { inner?: number; outer?: number; top?: number; bottom?: number };
}

export interface CoverStyle {
  background: string;
  textColor: string;
  fontFamily: StandardFamily;
}

/** The story's typeface family drawn with the Unicode family of the same kind. */
const FAMILIES: Record<StandardFamily, FontFamily> = { Times: 'serif', Helvetica: 'sans', Courier: 'mono' };

const POINTS_PER_INCH = 72;
/** Blocks laid out between two turns of the event loop, so the stream drains and the server stays responsive. */
const BLOCKS_PER_SLICE = 40;

/** '6x9' -> [432, 648] points. */
export function trimSizePoints(trimSize: string): [number, number] {
  const m = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(trimSize);
  if (!m) throw new Error(`unsupported trim size ${trimSize}`);
  return [Number(m[1]) * POINTS_PER_INCH, Number(m[2]) * POINTS_PER_INCH];
}

export function faceOf(family: string, bold = false, italic = false): FontStyle {
  const standard: StandardFamily = FONT_FAMILIES[family as keyof typeof FONT_FAMILIES] ?? (family in FAMILIES ? (family as StandardFamily) : 'Times');
  return { family: FAMILIES[standard], bold, italic };
}

/** PDF document info without empty entries: pdfkit hashes every key's value into the file id and fails on undefined. */
function documentInfo(fields: Record<string, string | null>): PDFKit.DocumentInfo {
  const info: Record<string, string> = { Creator: 'Family Stories' };
  for (const [key, value] of Object.entries(fields)) if (value) info[key] = value;
  return info as PDFKit.DocumentInfo;
}

type Section = { kind: 'title' } | { kind: 'toc' } | { kind: 'chapter'; title: string; headerFooter: HeaderFooter; opening: boolean };

export interface InteriorLayout {
  pages: number;
  /** 1-based page on which each chapter starts. */
  chapterPages: number[];
}

interface Geometry {
  width: number;
  height: number;
  margins: { top: number; bottom: number; left: number; right: number };
  contentWidth: number;
}

function geometryOf(book: BookForPrint): Geometry {
  const [width, height] = trimSizePoints(book.trimSize);
  const inch = POINTS_PER_INCH;
  const side = (((book.margins?.inner ?? 0.875) + (book.margins?.outer ?? 0.625)) / 2) * inch;
  const margins = { top: (book.margins?.top ?? 0.75) * inch, bottom: (book.margins?.bottom ?? 0.75) * inch, left: side, right: side };
  return { width, height, margins, contentWidth: width - margins.left - margins.right };
}

const TOC_NUMBER_COLUMN = 36;

/** The contents, from the current page on; numbers are null while only the page count matters. */
function layoutToc(doc: PDFKit.PDFDocument, pdf: PdfText, g: Geometry, titles: readonly string[], numbers: readonly number[] | null, setBody: (style: FontStyle, size: number) => void): void {
  setBody(faceOf('Times', true), 16);
  pdf.text('Contents', { align: 'center', width: g.contentWidth });
  doc.moveDown(1);
  titles.forEach((title, i) => {
    setBody(faceOf('Times'), 11);
    const label = `${i + 1}. ${title}`;
    const needed = pdf.heightOfString(label, { width: g.contentWidth - TOC_NUMBER_COLUMN });
    if (doc.y + needed > g.height - g.margins.bottom) doc.addPage();
    const y = doc.y;
    pdf.text(label, { width: g.contentWidth - TOC_NUMBER_COLUMN }, g.margins.left, y);
    const after = doc.y;
    if (numbers) {
      // Right-aligned by hand: a wrapped, width-bound text call could start a page of its own.
      const number = String(numbers[i] ?? '');
      pdf.text(number, { lineBreak: false }, g.width - g.margins.right - pdf.widthOfString(number), y);
    }
    doc.x = g.margins.left;
    doc.y = after + 4;
  });
}

/** Pages the contents take: laid out on a throwaway document whose bytes are discarded. */
function tocPageCount(book: BookForPrint, titles: readonly string[]): number {
  const g = geometryOf(book);
  const doc = newPdfDocument({ size: [g.width, g.height], margins: g.margins, autoFirstPage: false, compress: false });
  let pages = 0;
  doc.on('pageAdded', () => (pages += 1));
  doc.resume();
  doc.addPage();
  const pdf = createPdfText(doc);
  layoutToc(doc, pdf, g, titles, null, (style, size) => {
    pdf.use(style);
    doc.fontSize(size);
  });
  doc.end();
  return pages;
}

/** Lay the interior out into a document that streams as it goes; `done` resolves after the last page. */
function layoutInterior(book: BookForPrint, chapters: readonly RenderChapter[]): { doc: PDFKit.PDFDocument; done: Promise<InteriorLayout> } {
  const g = geometryOf(book);
  const { width, height, margins, contentWidth } = g;
  const tocPages = tocPageCount(book, chapters.map((c) => c.title));
  const frontMatter = 1 + tocPages;
  const doc = newPdfDocument({
    size: [width, height],
    margins,
    autoFirstPage: false,
    compress: true,
    lang: book.language,
    info: documentInfo({ Title: book.title, Author: book.author, Subject: book.subtitle, Keywords: book.keywords.join(', ') || null }),
  });

  // The number the next page will carry in the finished book (chapters are laid out first).
  let nextNumber = frontMatter + 1;
  let section: Section = { kind: 'title' };
  const pdf = createPdfText(doc);
  // The body size in force, restored after each page's header and footer are drawn mid-paragraph.
  let body = { style: faceOf('Times'), size: 11 };

  /** One line of text at an absolute position, aligned without a wrapper (a wrapper could add pages). */
  const line = (text: string, y: number, align: 'left' | 'center' | 'right', style: FontStyle, size: number) => {
    pdf.use(style);
    doc.fontSize(size);
    let shown = text;
    while ([...shown].length > 1 && pdf.widthOfString(shown) > contentWidth) shown = `${[...shown].slice(0, -2).join('')}…`;
    const w = pdf.widthOfString(shown);
    const x = align === 'left' ? margins.left : align === 'right' ? width - margins.right - w : margins.left + (contentWidth - w) / 2;
    pdf.text(shown, { lineBreak: false }, x, y);
  };

  doc.on('pageAdded', () => {
    const number = nextNumber++;
    if (section.kind === 'title') return;
    const { x, y } = doc;
    // A page break in the middle of a paragraph of mixed runs (continued text) lands here with the
    // paragraph's line wrapper and options still pending; the header and footer must neither use nor
    // end them, so they are set aside and put back.
    const pending = doc as unknown as { _wrapper: unknown; _textOptions: unknown };
    // The paragraph's run may be in another font than its style's main face (a Han name): put that one back.
    const saved = { wrapper: pending._wrapper, options: pending._textOptions, font: pdf.currentFont, style: pdf.style };
    pending._wrapper = null;
    pending._textOptions = null;
    const hf = section.kind === 'chapter' ? section.headerFooter : null;
    const small = 8.5;
    doc.fillColor('#444444');
    if (hf && hf.showHeader && section.kind === 'chapter' && !section.opening) {
      line(hf.headerText || (number % 2 === 0 ? book.title : section.title), margins.top / 2 - small / 2, hf.headerAlign, faceOf('Times', false, true), small);
    }
    const footerY = height - margins.bottom / 2 - small / 2;
    const showNumbers = hf ? hf.showPageNumbers : true;
    const position = hf?.pageNumberPosition ?? 'outside';
    const numberAlign = position === 'outside' ? (number % 2 === 0 ? 'left' : 'right') : position;
    if (hf && hf.showFooter && hf.footerText) {
      // The footer text takes the other side when the number shares its line.
      const footerAlign = showNumbers && numberAlign === hf.footerAlign ? (numberAlign === 'left' ? 'right' : 'left') : hf.footerAlign;
      line(hf.footerText, footerY, footerAlign, faceOf('Times'), small);
    }
    if (showNumbers) line(String(number), footerY, numberAlign, faceOf('Times'), small);
    doc.fillColor('#000000');
    pdf.resume(saved.style, saved.font);
    doc.fontSize(body.size);
    pending._wrapper = saved.wrapper;
    pending._textOptions = saved.options;
    doc.x = x;
    doc.y = y;
  });

  const setBody = (style: FontStyle, size: number) => {
    body = { style, size };
    pdf.use(style);
    doc.fontSize(size);
  };

  const layoutBlocks = async (blocks: readonly ContentBlock[], family: string, size: number, lineHeight: number) => {
    // pdfkit's line height is the font's own (about 1.15 em) plus lineGap.
    const lineGap = Math.max(0, size * (lineHeight - 1.15));
    const paragraphGap = size * 0.6;
    for (const [n, block] of blocks.entries()) {
      if (n > 0 && n % BLOCKS_PER_SLICE === 0) await yieldToLoop();
      const indent = block.kind === 'item' ? 14 * block.depth : 0;
      const runs: TextRun[] = block.kind === 'item' ? [{ text: `${block.marker} `, bold: false, italic: false }, ...block.runs] : block.runs;
      doc.x = margins.left + indent;
      runs.forEach((r, i) => {
        setBody(faceOf(family, r.bold, r.italic), size);
        const last = i === runs.length - 1;
        // Items of one list sit close together; the list as a whole is spaced like a paragraph.
        const tight = block.kind === 'item' && blocks[n + 1]?.kind === 'item';
        pdf.text(r.text, { width: contentWidth - indent, lineGap, continued: !last, paragraphGap: last ? (tight ? paragraphGap / 3 : paragraphGap) : 0 });
      });
      doc.x = margins.left;
    }
  };

  const pageTree = () => (doc as unknown as { _root: { data: { Pages: { data: { Kids: unknown[] } } } } })._root.data.Pages.data.Kids;

  const run = async (): Promise<InteriorLayout> => {
    const chapterPages: number[] = [];
    for (const [i, chapter] of chapters.entries()) {
      section = { kind: 'chapter', title: chapter.title, headerFooter: chapter.headerFooter, opening: true };
      chapterPages.push(nextNumber);
      doc.addPage();
      section = { ...section, opening: false };
      doc.outline.addItem(chapter.title);
      const { fontFamily, fontSize, lineHeight } = chapter.typography;
      doc.y = margins.top + (height - margins.top - margins.bottom) * 0.15;
      setBody(faceOf(fontFamily, false, true), Math.max(9, fontSize * 0.9));
      pdf.text(`Chapter ${i + 1}`, { align: 'center', width: contentWidth });
      doc.moveDown(0.4);
      setBody(faceOf(fontFamily, true), Math.min(28, fontSize * 1.8));
      pdf.text(chapter.title, { align: 'center', width: contentWidth });
      doc.moveDown(1.2);
      await layoutBlocks(chapter.blocks, fontFamily, fontSize, lineHeight);
      await yieldToLoop();
    }
    const bodyPages = nextNumber - frontMatter - 1;

    // Front matter, now that every chapter's page is known.
    nextNumber = 1;
    section = { kind: 'title' };
    doc.addPage();
    doc.y = height * 0.3;
    setBody(faceOf('Times', true), 24);
    pdf.text(book.title, { align: 'center', width: contentWidth });
    if (book.subtitle) {
      doc.moveDown(0.6);
      setBody(faceOf('Times', false, true), 14);
      pdf.text(book.subtitle, { align: 'center', width: contentWidth });
    }
    if (book.author) {
      doc.y = height * 0.7;
      setBody(faceOf('Times'), 13);
      pdf.text(book.author, { align: 'center', width: contentWidth });
    }
    section = { kind: 'toc' };
    doc.addPage();
    layoutToc(doc, pdf, g, chapters.map((c) => c.title), chapterPages, setBody);
    if (nextNumber - 1 !== frontMatter) throw new Error(`contents took ${nextNumber - 2} pages, ${tocPages} were reserved`);

    // Title page and contents to the front of the page tree.
    const kids = pageTree();
    kids.unshift(...kids.splice(bodyPages));
    return { pages: frontMatter + bodyPages, chapterPages };
  };

  const done = run().then((layout) => {
    doc.end();
    return layout;
  });
  // A layout error must end the stream too, or the consumer would wait forever.
  done.catch((err: unknown) => doc.destroy(err instanceof Error ? err : new Error(String(err))));
  return { doc, done };
}

/** The interior as a stream; `done` resolves with the page count and chapter pages once laid out. */
export function streamInterior(book: BookForPrint, chapters: readonly RenderChapter[]): { stream: Readable; done: Promise<InteriorLayout> } {
  const { doc, done } = layoutInterior(book, chapters);
  return { stream: doc as unknown as Readable, done };
}

/** The cover: one page at trim size with title, subtitle and author on the template's colours. */
export function streamCover(book: BookForPrint, style: CoverStyle): { stream: Readable; pages: number } {
  const [width, height] = trimSizePoints(book.trimSize);
  const margin = 0.6 * POINTS_PER_INCH;
  const doc = newPdfDocument({
    size: [width, height],
    margin,
    compress: true,
    lang: book.language,
    info: documentInfo({ Title: `${book.title} (cover)`, Author: book.author }),
  });
  const w = width - 2 * margin;
  const pdf = createPdfText(doc);
  doc.rect(0, 0, width, height).fill(style.background);
  doc.fillColor(style.textColor);
  pdf.use(faceOf(style.fontFamily, true));
  doc.fontSize(Math.round(width / 14));
  const titleHeight = pdf.heightOfString(book.title, { width: w, align: 'center' });
  pdf.text(book.title, { width: w, align: 'center' }, margin, Math.max(margin, height * 0.3 - titleHeight / 2));
  if (book.subtitle) {
    doc.moveDown(0.5);
    pdf.use(faceOf(style.fontFamily, false, true));
    doc.fontSize(Math.round(width / 28));
    pdf.text(book.subtitle, { width: w, align: 'center' });
  }
  if (book.author) {
    pdf.use(faceOf(style.fontFamily));
    doc.fontSize(Math.round(width / 24));
    pdf.text(book.author, { width: w, align: 'center' }, margin, height * 0.8);
  }
  doc.end();
  return { stream: doc as unknown as Readable, pages: 1 };
}
