// The export document model every renderer reads: formats, options, the content record, the text helpers,
// and one block model (with the themes) so pdf, html and docx show the same sections in the same order.

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

/**
 * A spreadsheet cell that starts with = + - @ (or a tab / carriage return, which some spreadsheets
 * skip before reading a formula) would run as a formula when the file is opened: prefix a quote so
 * it stays text (OWASP "CSV injection"). Used by the CSV export and the tab-separated flashcard exports.
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

const scalarText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return cleanText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return cleanText(JSON.stringify(value));
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
// Flashcards: the cards of a deck, whatever the generator named their fields

export interface Flashcard {
  front: string;
  back: string;
  hint: string | null;
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

/** The cards of a flashcard deck, front and back whatever their key order or names, without internal fields (id, kind). */
export function flashcardsOf(content: Record<string, unknown>): Flashcard[] {
  const list = [content['cards'], content['flashcards'], content['items']].find(Array.isArray) as unknown[] | undefined;
  if (!list) return [];
  return list.filter(isPlainObject).flatMap((card) => {
    const front = pick(card, FRONT_KEYS);
    const back = pick(card, BACK_KEYS);
    if (front === undefined || back === undefined) return [];
    const tags = Array.isArray(card['tags']) ? card['tags'].filter((t): t is string => typeof t === 'string') : [];
    const difficulty = typeof card['difficulty'] === 'string' ? [card['difficulty']] : [];
    const hint = typeof card['hint'] === 'string' && card['hint'].trim() ? cleanText(card['hint']) : null;
    return [{ front: cleanText(front), back: cleanText(back), hint, tags: [...tags, ...difficulty] }];
  });
}

/** Deck fields a person reads; the rest (ids, where the text came from, the card list itself) stay out of documents. */
const DECK_INTERNAL = new Set(['id', 'title', 'cards', 'flashcards', 'items', 'sourceType', 'source_type']);

/** A deck as a document shows it: its settings, then each card front before back (and its hint). */
function flashcardBlocks(content: Record<string, unknown>, out: Block[]): boolean {
  const cards = flashcardsOf(content);
  if (cards.length === 0) return false;
  for (const [key, value] of Object.entries(content)) {
    if (DECK_INTERNAL.has(key) || (typeof value !== 'string' && typeof value !== 'number')) continue;
    out.push({ type: 'field', label: humanize(key), value: scalarText(value) });
  }
  out.push({ type: 'heading', level: 2, text: 'Cards' });
  cards.forEach((card, i) => {
    out.push({ type: 'heading', level: 3, text: `Card ${i + 1}` }, { type: 'field', label: 'Front', value: card.front }, { type: 'field', label: 'Back', value: card.back });
    if (card.hint) out.push({ type: 'field', label: 'Hint', value: card.hint });
  });
  return true;
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
  if (!(doc.tool === 'flashcards' && flashcardBlocks(doc.content, blocks))) contentBlocks(doc.content, '', 2, blocks);
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

export const THEMES = {
  light: { background: null, text: '#1F2328', muted: '#59636E', accent: '#0B5CAD', rule: '#D0D7DE' },
  dark: { background: '#121417', text: '#E6E6E6', muted: '#A0A7B0', accent: '#8AB4F8', rule: '#3A3F45' },
} as const;

export const headingScale = { 1: 2, 2: 1.5, 3: 1.2 } as const;
