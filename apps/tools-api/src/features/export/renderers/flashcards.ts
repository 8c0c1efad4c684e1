// Flashcards as Anki and Quizlet import text. Both are tab-separated text a spreadsheet opens too, so every
// field is formula-guarded like the CSV export's cells (OWASP "CSV injection"): a field starting with
// = + - @ (or tab / carriage return) gets a leading apostrophe.
import { createHash } from 'node:crypto';
import { CONTENT_TYPES, EXTENSIONS, cleanText, flashcardsOf, neutralizeFormula, type ExportDocument, type RenderedExport } from '../export.document';

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

/** Anki's text importer reads quoted fields like CSV: formula-guarded, then quoted when holding a tab, newline or quote. */
const ankiField = (raw: string): string => {
  const value = neutralizeFormula(raw);
  return /[\t\r\n"]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
};

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

/** Quizlet import: term TAB definition, one card per line; tabs and line breaks inside a field become spaces; formula-guarded. */
export function renderQuizlet(doc: ExportDocument): RenderedExport {
  const flat = (value: string) => neutralizeFormula(value.replace(/[\t\r\n]+/g, ' ').trim());
  const lines = flashcardsOf(doc.content).map((card) => `${flat(card.front)}\t${flat(card.back)}`);
  return { body: Buffer.from(lines.join('\n') + (lines.length ? '\n' : ''), 'utf8'), contentType: CONTENT_TYPES.quizlet, extension: EXTENSIONS.quizlet };
}
