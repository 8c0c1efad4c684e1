// Export renderers: one content record in, one file out. Pure functions (no database, no request),
// so each format is tested on its own with a real reader. Documents (pdf, html, docx) are built from
// one block model, so every format shows the same sections in the same order.
import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { createPdfText } from '@story/pdf';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';

export const EXPORT_FORMATS = ['json', 'csv', 'pdf', 'html', 'docx', 'anki', 'quizlet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Study-app import formats: only meaningful for a deck of cards. */
export const FLASHCARD_ONLY_FORMATS: readonly ExportFormat[] = ['anki', 'quizlet'];

export const EXPORT_TEMPLATES = ['standard', 'minimal'] as const;
export type ExportTemplate = (typeof EXPORT_TEMPLATES)[number];

export interface ExportOptions {
  includeMetadata: boolean;
  includeResponses: boolean;
  theme: 'light' | 'dark';
  /** standard: overview, content, analytics; minimal: title and content only. */
  template: ExportTemplate;
  pageSize: 'a4' | 'letter';
  /** Body text size in points. */
  fontSize: number;
}

export const DEFAULT_EXPORT_OPTIONS: ExportOptions = { includeMetadata: true, includeResponses: false, theme: 'light', template: 'standard', pageSize: 'a4', fontSize: 12 };

export interface ExportResponse {
  id: string;
  title: string;
  content: string;
  wordCount: number;
  createdAt: string;
}

export interface ExportDocument {
  tool: string;
  id: string;
  shareCode: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  content: Record<string, unknown>;
  /** Tool-specific Field,Value rows (the registry's exportRows, or the content flattened). */
  rows: [string, string][];
  seo: { title: string | null; description: string | null; keywords: string[] };
  /** is_ai_generated and ai_model as stored: true only when an AI model wrote the content. */
  ai: { model: string | null; isAiGenerated: boolean };
  analytics: { viewCount: number; shareCount: number; responseCount: number };
  /** Present only when the caller asked for responses. */
  responses: ExportResponse[] | null;
}

export interface RenderedExport {
  body: Buffer;
  contentType: string;
  extension: string;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  anki: 'text/plain; charset=utf-8',
  quizlet: 'text/plain; charset=utf-8',
};

export const EXTENSIONS: Record<ExportFormat, string> = { json: 'json', csv: 'csv', pdf: 'pdf', html: 'html', docx: 'docx', anki: 'txt', quizlet: 'txt' };

// ---------------------------------------------------------------------------------------------
// Text helpers

/**
 * Who made the content, in words every format prints: an AI model only when one wrote it; the offline
 * generator (ai_model local-<tool>) or nothing at all (a PDF's own pages) otherwise.
 */
export function madeBy(ai: ExportDocument['ai']): string {
  if (ai.isAiGenerated) return `AI model ${ai.model ?? 'unknown'}`;
  if (ai.model) return `the offline generator (${ai.model}), no AI model`;
  return 'taken from the uploaded file, no AI model';
}

/** Control characters other than tab and newlines: invalid in XML (docx) and noise everywhere else. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
export const cleanText = (value: string): string => value.replace(CONTROL, '');

const scalarText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return cleanText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return cleanText(JSON.stringify(value));
};

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Generic Field,Value rows for any tool: nested keys joined with dots, array items by index
 * (cards.0.front). Used when the tool's definition has no rows of its own.
 */
export function flattenContent(value: unknown, prefix = ''): [string, string][] {
  if (Array.isArray(value)) {
    if (value.length === 0) return prefix ? [[prefix, '']] : [];
    return value.flatMap((item, i) => flattenContent(item, prefix ? `${prefix}.${i}` : String(i)));
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return prefix ? [[prefix, '']] : [];
    return entries.flatMap(([key, item]) => flattenContent(item, prefix ? `${prefix}.${key}` : key));
  }
  return [[prefix || 'value', scalarText(value)]];
}

/** camelCase / snake_case / kebab-case key to "Title words". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const singular = (label: string): string => (/ies$/i.test(label) ? label.replace(/ies$/i, 'y') : /[^s]s$/i.test(label) ? label.slice(0, -1) : label);

/** The fixed rows of spec 002's CSV (title, created at, share code, view count), then the rest. */
export function exportRows(doc: ExportDocument, options: Pick<ExportOptions, 'includeMetadata' | 'includeResponses'>): [string, string][] {
  const rows: [string, string][] = [
    ['Title', doc.title],
    ['Created At', doc.createdAt],
    ['Share Code', doc.shareCode],
    ['View Count', String(doc.analytics.viewCount)],
  ];
  if (options.includeMetadata) {
    rows.push(
      ['Tool', doc.tool],
      ['Updated At', doc.updatedAt],
      ['Share Count', String(doc.analytics.shareCount)],
      ['Response Count', String(doc.analytics.responseCount)],
      ['SEO Title', doc.seo.title ?? ''],
      ['SEO Description', doc.seo.description ?? ''],
      ['Keywords', doc.seo.keywords.join('; ')],
      ['Made By', madeBy(doc.ai)],
      ['AI Model', doc.ai.isAiGenerated ? (doc.ai.model ?? '') : ''],
      ['AI Generated', doc.ai.isAiGenerated ? 'yes' : 'no'],
    );
  }
  rows.push(...doc.rows);
  if (options.includeResponses && doc.responses) {
    doc.responses.forEach((r, i) => {
      rows.push([`Response ${i + 1} Title`, r.title], [`Response ${i + 1} Content`, r.content], [`Response ${i + 1} Created At`, r.createdAt]);
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// JSON and CSV

/** Spec 002's JSON export body: {metadata, content, responses (if included), analytics}. */
export function renderJson(doc: ExportDocument, options: ExportOptions): RenderedExport {
  const body = {
    metadata: {
      tool: doc.tool,
      title: doc.title,
      createdAt: doc.createdAt,
      shareCode: doc.shareCode,
      ...(options.includeMetadata
        ? { id: doc.id, updatedAt: doc.updatedAt, seoTitle: doc.seo.title, seoDescription: doc.seo.description, keywords: doc.seo.keywords, aiModel: doc.ai.model, isAiGenerated: doc.ai.isAiGenerated, madeBy: madeBy(doc.ai) }
        : {}),
    },
    content: doc.content,
    ...(options.includeResponses ? { responses: doc.responses ?? [] } : {}),
    analytics: doc.analytics,
  };
  return { body: Buffer.from(JSON.stringify(body, null, 2), 'utf8'), contentType: CONTENT_TYPES.json, extension: EXTENSIONS.json };
}

/**
 * A spreadsheet cell that starts with = + - @ (or a tab / carriage return, which some spreadsheets
 * skip before reading a formula) would run as a formula when the file is opened: prefix a quote so
 * it stays text (OWASP "CSV injection").
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside. */
export function csvField(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function renderCsv(doc: ExportDocument, options: ExportOptions): RenderedExport {
  const lines = [['Field', 'Value'], ...exportRows(doc, options)].map((row) => row.map((cell) => csvField(neutralizeFormula(cleanText(cell)))).join(','));
  // RFC 4180 records end with CRLF, the last one included.
  return { body: Buffer.from(lines.join('\r\n') + '\r\n', 'utf8'), contentType: CONTENT_TYPES.csv, extension: EXTENSIONS.csv };
}

// ---------------------------------------------------------------------------------------------
// Flashcards: Anki and Quizlet import text

export interface Flashcard {
  front: string;
  back: string;
  tags: string[];
}

const FRONT_KEYS = ['front', 'question', 'term', 'prompt', 'q'];
const BACK_KEYS = ['back', 'answer', 'definition', 'explanation', 'a'];

const pick = (card: Record<string, unknown>, keys: string[]): string | undefined => {
  for (const key of keys) {
    const value = card[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
};

/** The cards of a flashcard deck, whatever the generator named its fields. */
export function flashcardsOf(content: Record<string, unknown>): Flashcard[] {
  const list = [content['cards'], content['flashcards'], content['items']].find(Array.isArray) as unknown[] | undefined;
  if (!list) return [];
  return list.filter(isPlainObject).flatMap((card) => {
    const front = pick(card, FRONT_KEYS);
    const back = pick(card, BACK_KEYS);
    if (front === undefined || back === undefined) return [];
    const tags = Array.isArray(card['tags']) ? card['tags'].filter((t): t is string => typeof t === 'string') : [];
    const difficulty = typeof card['difficulty'] === 'string' ? [card['difficulty']] : [];
    return [{ front: cleanText(front), back: cleanText(back), tags: [...tags, ...difficulty] }];
  });
}

/**
 * The stable identity of one card: the same content id and card position always give the same guid,
 * so importing an updated export into Anki updates the notes instead of adding duplicates.
 */
export function cardGuid(contentId: string, index: number): string {
  return 'sf' + createHash('sha256').update(`${contentId}:${index}`).digest('base64url').slice(0, 20);
}

/** Anki tags are space-separated words. */
const tagWord = (tag: string): string =>
  tag
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_:-]+/gu, '-')
    .replace(/^-+|-+$/g, '');

/** Anki's text importer reads quoted fields like CSV: quote one holding a tab, newline or quote. */
const ankiField = (value: string): string => (/[\t\r\n"]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Anki plain-text import (File > Import): headers say the separator, columns, deck, and which columns hold tags and guids. */
export function renderAnki(doc: ExportDocument): RenderedExport {
  const deck = cleanText(doc.title).replace(/[\t\r\n]+/g, ' ').trim() || 'Flashcards';
  const deckTag = tagWord(`deck-${doc.shareCode}`);
  const lines = ['#separator:tab', '#html:false', '#notetype:Basic', `#deck:${deck}`, '#columns:GUID\tFront\tBack\tTags', '#guid column:1', '#tags column:4'];
  flashcardsOf(doc.content).forEach((card, i) => {
    const tags = [...new Set(['story-tools', deckTag, ...card.tags.map(tagWord)].filter(Boolean))].join(' ');
    lines.push([cardGuid(doc.id, i), ankiField(card.front), ankiField(card.back), tags].join('\t'));
  });
  return { body: Buffer.from(lines.join('\n') + '\n', 'utf8'), contentType: CONTENT_TYPES.anki, extension: EXTENSIONS.anki };
}

/** Quizlet import: term TAB definition, one card per line; tabs and line breaks inside a field become spaces. */
export function renderQuizlet(doc: ExportDocument): RenderedExport {
  const flat = (value: string) => value.replace(/[\t\r\n]+/g, ' ').trim();
  const lines = flashcardsOf(doc.content).map((card) => `${flat(card.front)}\t${flat(card.back)}`);
  return { body: Buffer.from(lines.join('\n') + (lines.length ? '\n' : ''), 'utf8'), contentType: CONTENT_TYPES.quizlet, extension: EXTENSIONS.quizlet };
}

// ---------------------------------------------------------------------------------------------
// Documents: one block model for pdf, html and docx

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; text: string }
  | { type: 'meta'; text: string }
  | { type: 'field'; label: string; value: string }
  | { type: 'paragraph'; text: string };

function contentBlocks(value: unknown, label: string, level: 2 | 3, out: Block[]): void {
  if (Array.isArray(value)) {
    if (value.every((item) => !isPlainObject(item) && !Array.isArray(item))) {
      const items = value.map(scalarText);
      // Short lists (keywords, names) read best on one line; longer ones item by item.
      if (items.join('; ').length <= 160) {
        if (items.length > 0) out.push({ type: 'field', label, value: items.join('; ') });
        return;
      }
    }
    out.push({ type: 'heading', level, text: label });
    value.forEach((item, i) => {
      const itemLabel = `${singular(label)} ${i + 1}`;
      if (isPlainObject(item) || Array.isArray(item)) contentBlocks(item, itemLabel, 3, out);
      else out.push({ type: 'field', label: itemLabel, value: scalarText(item) });
    });
    return;
  }
  if (isPlainObject(value)) {
    if (label) out.push({ type: 'heading', level, text: label });
    for (const [key, item] of Object.entries(value)) {
      if (isPlainObject(item) || Array.isArray(item)) contentBlocks(item, humanize(key), 3, out);
      else if (typeof item === 'string' && item.length > 160) out.push({ type: 'field', label: humanize(key), value: '' }, { type: 'paragraph', text: cleanText(item) });
      else out.push({ type: 'field', label: humanize(key), value: scalarText(item) });
    }
    return;
  }
  out.push({ type: 'field', label: label || 'Value', value: scalarText(value) });
}

export function documentBlocks(doc: ExportDocument, options: ExportOptions): Block[] {
  const blocks: Block[] = [{ type: 'heading', level: 1, text: cleanText(doc.title) }];
  const created = doc.createdAt.slice(0, 10);
  blocks.push({ type: 'meta', text: `${humanize(doc.tool)} · created ${created} · share code ${doc.shareCode}` });
  if (options.template === 'standard' && options.includeMetadata) {
    if (doc.seo.description) blocks.push({ type: 'paragraph', text: cleanText(doc.seo.description) });
    if (doc.seo.keywords.length) blocks.push({ type: 'field', label: 'Keywords', value: doc.seo.keywords.map(cleanText).join(', ') });
    blocks.push({ type: 'field', label: 'Made by', value: madeBy(doc.ai) });
  }
  blocks.push({ type: 'heading', level: 2, text: 'Content' });
  contentBlocks(doc.content, '', 2, blocks);
  if (options.template === 'standard') {
    blocks.push(
      { type: 'heading', level: 2, text: 'Analytics' },
      { type: 'field', label: 'Views', value: String(doc.analytics.viewCount) },
      { type: 'field', label: 'Shares', value: String(doc.analytics.shareCount) },
      { type: 'field', label: 'Responses', value: String(doc.analytics.responseCount) },
    );
  }
  if (options.includeResponses && doc.responses && doc.responses.length > 0) {
    blocks.push({ type: 'heading', level: 2, text: 'Responses' });
    for (const response of doc.responses) {
      blocks.push(
        { type: 'heading', level: 3, text: cleanText(response.title) },
        { type: 'meta', text: `${response.wordCount} words · ${response.createdAt.slice(0, 10)}` },
        { type: 'paragraph', text: cleanText(response.content) },
      );
    }
  }
  return blocks;
}

const THEMES = {
  light: { background: null, text: '#1F2328', muted: '#59636E', accent: '#0B5CAD', rule: '#D0D7DE' },
  dark: { background: '#121417', text: '#E6E6E6', muted: '#A0A7B0', accent: '#8AB4F8', rule: '#3A3F45' },
} as const;

const headingScale = { 1: 2, 2: 1.5, 3: 1.2 } as const;

// --- HTML

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const htmlText = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

export function renderHtml(doc: ExportDocument, options: ExportOptions): RenderedExport {
  const theme = THEMES[options.theme];
  const body = documentBlocks(doc, options)
    .map((block) => {
      switch (block.type) {
        case 'heading':
          return `<h${block.level}>${htmlText(block.text)}</h${block.level}>`;
        case 'meta':
          return `<p class="meta">${htmlText(block.text)}</p>`;
        case 'field':
          return `<p class="field"><strong>${htmlText(block.label)}:</strong> ${htmlText(block.value)}</p>`;
        case 'paragraph':
          return `<p>${htmlText(block.text)}</p>`;
      }
    })
    .join('\n');
  // A standalone file: inline styles only, and a policy that lets it run nothing if opened in a browser.
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="Family Stories free tools">
<title>${escapeHtml(cleanText(doc.title))}</title>
<style>
@page { size: ${options.pageSize === 'a4' ? 'A4' : 'letter'}; margin: 2cm; }
body { margin: 0; background: ${theme.background ?? '#FFFFFF'}; color: ${theme.text}; font: ${options.fontSize}pt/1.5 Georgia, 'Times New Roman', serif; }
main { max-width: 46em; margin: 0 auto; padding: 2em 1.5em; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; color: ${theme.accent}; line-height: 1.25; }
h2 { border-bottom: 1px solid ${theme.rule}; padding-bottom: .2em; }
.meta { color: ${theme.muted}; font-size: .85em; }
.field strong { font-family: Helvetica, Arial, sans-serif; }
</style>
</head>
<body class="theme-${options.theme} template-${options.template}">
<main>
${body}
</main>
</body>
</html>
`;
  return { body: Buffer.from(html, 'utf8'), contentType: CONTENT_TYPES.html, extension: EXTENSIONS.html };
}

// --- PDF

/** Rendered in memory: Content-Length must be known, and an export is a few pages of text. */
export function renderPdf(doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  const theme = THEMES[options.theme];
  const pdf = new PDFDocument({
    size: options.pageSize === 'a4' ? 'A4' : 'LETTER',
    margin: 56,
    // pdfkit writes non-ASCII document info as UTF-16, so titles keep every script.
    info: { Title: cleanText(doc.title), Subject: `${doc.tool} export`, Creator: 'Family Stories free tools', Keywords: cleanText(doc.seo.keywords.join(', ')) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const paintBackground = () => {
    if (!theme.background) return;
    pdf.save().rect(0, 0, pdf.page.width, pdf.page.height).fill(theme.background).restore();
  };
  paintBackground();
  pdf.on('pageAdded', paintBackground);

  // Unicode fonts shared with the book PDF (@story/pdf): every script prints as written.
  const text = createPdfText(pdf, { family: 'sans' });
  const sans = { family: 'sans' } as const;
  const bold = { family: 'sans', bold: true } as const;
  const size = options.fontSize;
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
  for (const block of documentBlocks(doc, options)) {
    switch (block.type) {
      case 'heading':
        pdf.moveDown(block.level === 1 ? 0 : 0.6);
        pdf.fontSize(size * headingScale[block.level]).fillColor(theme.accent);
        text.use(bold).text(block.text, { width });
        pdf.moveDown(0.3);
        break;
      case 'meta':
        pdf.fontSize(size * 0.85).fillColor(theme.muted);
        text.use(sans).text(block.text, { width });
        pdf.moveDown(0.4);
        break;
      case 'field':
        pdf.fontSize(size).fillColor(theme.text);
        text.use(bold).text(`${block.label}: `, { width, continued: block.value.length > 0 });
        if (block.value) text.use(sans).text(block.value, { width });
        pdf.moveDown(0.2);
        break;
      case 'paragraph':
        pdf.fontSize(size).fillColor(theme.text);
        text.use(sans).text(block.text, { width, align: 'left' });
        pdf.moveDown(0.5);
        break;
    }
  }
  pdf.end();
  return done.then((body) => ({ body, contentType: CONTENT_TYPES.pdf, extension: EXTENSIONS.pdf }));
}

// --- DOCX

/** Page sizes in twentieths of a point, as Word stores them. */
const DOCX_PAGE = { a4: { width: 11906, height: 16838 }, letter: { width: 12240, height: 15840 } } as const;
const hex = (color: string) => color.replace('#', '');

const runs = (text: string, extra: { bold?: boolean; color?: string; size?: number } = {}): TextRun[] =>
  text.split(/\r?\n/).map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : undefined, ...extra }));

export async function renderDocx(doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  const theme = THEMES[options.theme];
  const half = (pt: number) => Math.round(pt * 2); // docx sizes are half-points
  const headingStyle = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
  const children = documentBlocks(doc, options).map((block) => {
    switch (block.type) {
      case 'heading':
        return new Paragraph({
          heading: headingStyle[block.level],
          children: runs(block.text, { bold: true, color: hex(theme.accent), size: half(options.fontSize * headingScale[block.level]) }),
          spacing: { before: 240, after: 120 },
        });
      case 'meta':
        return new Paragraph({ children: runs(block.text, { color: hex(theme.muted), size: half(options.fontSize * 0.85) }), spacing: { after: 160 } });
      case 'field':
        return new Paragraph({ children: [new TextRun({ text: `${block.label}: `, bold: true }), ...runs(block.value)], spacing: { after: 80 } });
      case 'paragraph':
        return new Paragraph({ children: runs(block.text), alignment: AlignmentType.LEFT, spacing: { after: 160 } });
    }
  });
  const document = new Document({
    title: cleanText(doc.title),
    subject: `${doc.tool} export`,
    creator: 'Family Stories free tools',
    keywords: doc.seo.keywords.join(', '),
    description: doc.seo.description ?? undefined,
    ...(theme.background ? { background: { color: hex(theme.background) } } : {}),
    styles: { default: { document: { run: { size: half(options.fontSize), color: hex(theme.text), font: 'Calibri' } } } },
    sections: [{ properties: { page: { size: DOCX_PAGE[options.pageSize] } }, children }],
  });
  const body = await Packer.toBuffer(document);
  return { body, contentType: CONTENT_TYPES.docx, extension: EXTENSIONS.docx };
}

/** The one entry point the export service calls. */
export async function renderExport(format: ExportFormat, doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  switch (format) {
    case 'json':
      return renderJson(doc, options);
    case 'csv':
      return renderCsv(doc, options);
    case 'pdf':
      return renderPdf(doc, options);
    case 'html':
      return renderHtml(doc, options);
    case 'docx':
      return renderDocx(doc, options);
    case 'anki':
      return renderAnki(doc);
    case 'quizlet':
      return renderQuizlet(doc);
    default: {
      const never: never = format;
      throw new Error(`unknown export format ${String(never)}`);
    }
  }
}
