// Story content rules of spec 000 Limits: HTML limited to p, br, strong, em, ul, ol, li with no
// attributes, sanitised by sanitize-html (a maintained sanitiser, not a regex), and the word count
// every story and book keeps.
import type sanitizeHtml from 'sanitize-html';

export const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'ul', 'ol', 'li'] as const;
export const MAX_TITLE = 200;
export const MAX_CONTENT = 50000;

// sanitize-html loads at the first story written, not at start.
let sanitizer: typeof sanitizeHtml | undefined;
const loadSanitizer = () => (sanitizer ??= require('sanitize-html') as typeof sanitizeHtml);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: {},
  allowedSchemes: [],
  // Tags outside the list are unwrapped (their text kept) except these, whose text is dropped with them.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'title', 'head'],
  // Editors often produce b/i: keep their meaning in the allowed vocabulary.
  transformTags: { b: 'strong', i: 'em', div: 'p' },
};

/** Sanitised content: only the allowed tags, no attributes, no scripts or their text. */
export function sanitizeContent(html: string): string {
  return loadSanitizer()(html, OPTIONS).trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Decode the entities sanitize-html emits (named basics and numeric references). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Plain text of sanitised content: block ends become line breaks. */
export function plainText(html: string): string {
  return decodeEntities(
    html
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|li|ul|ol)>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  );
}

export function countWords(html: string): number {
  const text = plainText(html).trim();
  return text === '' ? 0 : text.split(/\s+/).length;
}

/** A run of text with its inline style. */
export interface TextRun {
  text: string;
  bold: boolean;
  italic: boolean;
}

/** A block of sanitised content, ready for layout (PDF export). */
export type ContentBlock = { kind: 'paragraph'; runs: TextRun[] } | { kind: 'item'; marker: string; depth: number; runs: TextRun[] };

/**
 * Parse sanitised content into blocks. The input only ever holds the seven allowed tags without
 * attributes (sanitizeContent ran first), so a tokenizer over exactly those tags is complete.
 */
export function contentBlocks(html: string): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const lists: { ordered: boolean; n: number }[] = [];
  let bold = 0;
  let italic = 0;
  let runs: TextRun[] = [];
  let item: { marker: string; depth: number } | null = null;

  const flush = () => {
    const trimmed = trimRuns(runs);
    if (trimmed.length > 0) blocks.push(item ? { kind: 'item', marker: item.marker, depth: item.depth, runs: trimmed } : { kind: 'paragraph', runs: trimmed });
    runs = [];
  };
  const push = (text: string) => {
    if (text === '') return;
    const last = runs[runs.length - 1];
    if (last && last.bold === bold > 0 && last.italic === italic > 0) last.text += text;
    else runs.push({ text, bold: bold > 0, italic: italic > 0 });
  };

  const tokens = html.split(/(<\/?[a-z]+\s*\/?>)/i);
  for (const token of tokens) {
    const tag = /^<(\/?)([a-z]+)\s*\/?>$/i.exec(token);
    if (!tag) {
      // Source line breaks are whitespace in HTML.
      push(decodeEntities(token.replace(/\s+/g, ' ')));
      continue;
    }
    const closing = tag[1] === '/';
    const name = (tag[2] ?? '').toLowerCase();
    switch (name) {
      case 'strong':
        bold = Math.max(0, bold + (closing ? -1 : 1));
        break;
      case 'em':
        italic = Math.max(0, italic + (closing ? -1 : 1));
        break;
      case 'br':
        push('\n');
        break;
      case 'p':
        flush();
        break;
      case 'ul':
      case 'ol':
        flush();
        if (closing) lists.pop();
        else lists.push({ ordered: name === 'ol', n: 0 });
        item = null;
        break;
      case 'li': {
        flush();
        if (closing) {
          item = null;
          break;
        }
        const list = lists[lists.length - 1];
        if (list) list.n += 1;
        item = { marker: list?.ordered ? `${list.n}.` : '•', depth: Math.max(1, lists.length) };
        break;
      }
      default:
        push(decodeEntities(token));
    }
  }
  flush();
  return blocks;
}

/** Runs without blank runs at either end and without the whitespace that surrounded the block. */
function trimRuns(runs: TextRun[]): TextRun[] {
  const out = runs.map((r) => ({ ...r, text: r.text.replace(/ *\n */g, '\n') }));
  const first = out.findIndex((r) => r.text.trim() !== '');
  if (first === -1) return [];
  let last = out.length - 1;
  while (out[last]?.text.trim() === '') last -= 1;
  const kept = out.slice(first, last + 1);
  const head = kept[0];
  const tail = kept[kept.length - 1];
  if (head) head.text = head.text.replace(/^\s+/, '');
  if (tail) tail.text = tail.text.replace(/\s+$/, '');
  return kept;
}
