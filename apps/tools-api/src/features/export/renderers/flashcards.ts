// Flashcards as Anki and Quizlet import text.
import { createHash } from 'node:crypto';
import { CONTENT_TYPES, EXTENSIONS, cleanText, isPlainObject, type ExportDocument, type RenderedExport } from '../export.document';

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
