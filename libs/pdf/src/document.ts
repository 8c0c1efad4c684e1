// Plain documents (the tools exports of spec 002, the data export's stories PDF) through the same engine,
// fonts, glyph check and preflight as the book: one typesetting path for every PDF the platform makes.
import { breakable, glyphRefusal, typstLanguage, type PrintRun } from './book';
import { fontList, type TextStyle } from './fonts';
import { missingCharacters, type MissingCharacter } from './glyph-coverage';
import { preflightFailure, preflightPdf, type PreflightReport } from './preflight';
import { DOCUMENT_TEMPLATE } from './templates/document.typ';
import { dominantScript, languageOf, paragraphDirection, scriptOfLanguage } from './text-language';
import { typesetter, type Typesetter } from './typst';

export type DocumentBlock =
  | { type: 'heading'; level: 1 | 2 | 3; text: string; newPage?: boolean }
  | { type: 'meta'; text: string }
  | { type: 'field'; label: string; value: string }
  | { type: 'paragraph'; runs: PrintRun[] }
  | { type: 'item'; marker: string; depth: number; runs: PrintRun[] };

export interface DocumentInput {
  title: string;
  authors?: string[];
  keywords?: string[];
  /** BCP 47; 'en' when not known. */
  language?: string;
  paper: 'a4' | 'us-letter';
  /** Page margin in points. */
  margin: number;
  /** Body size in points. */
  size: number;
  style: TextStyle;
  /** #rrggbb; background null for white paper. */
  colors: { background: string | null; text: string; muted: string; accent: string };
  blocks: DocumentBlock[];
}

export type DocumentResult = { ok: true; pdf: Buffer; pages: number; preflight: PreflightReport } | { ok: false; reason: string; missing: MissingCharacter[] };

const textOf = (block: DocumentBlock): string =>
  block.type === 'heading' || block.type === 'meta' ? block.text : block.type === 'field' ? `${block.label}: ${block.value}` : `${block.type === 'item' ? block.marker : ''} ${block.runs.map((r) => r.text).join('')}`;

const HEX = /^#[0-9a-f]{6}$/i;

/** Typeset a document; a character no bundled font draws refuses it (named) before anything is typeset. */
export async function typesetDocument(input: DocumentInput, engine: Typesetter = typesetter()): Promise<DocumentResult> {
  const language = input.language ?? 'en';
  const all = [input.title, ...input.blocks.map(textOf)].join('\n');
  const missing = missingCharacters(all, input.style, language);
  if (missing.length) return { ok: false, reason: glyphRefusal(missing), missing };
  for (const [name, value] of Object.entries(input.colors)) if (value !== null && !HEX.test(value)) throw new Error(`colour ${name} must be #rrggbb`);

  const { lang, region } = typstLanguage(language);
  const bookScript = scriptOfLanguage(language);
  const placed = (text: string) => {
    const script = dominantScript(text);
    const other = script && script !== bookScript ? typstLanguage(languageOf(text, null)).lang : null;
    return { dir: paragraphDirection(text), lang: other && other !== 'und' ? other : null };
  };
  const blocks = input.blocks.map((b) => {
    const where = placed(textOf(b));
    switch (b.type) {
      case 'heading':
        return { type: b.type, level: b.level, text: breakable(b.text.normalize('NFC')), newPage: !!b.newPage, ...where };
      case 'meta':
        return { type: b.type, text: breakable(b.text.normalize('NFC')), ...where };
      case 'field':
        return { type: b.type, label: b.label.normalize('NFC'), value: breakable(b.value.normalize('NFC')), ...where };
      case 'paragraph':
        return { type: b.type, runs: b.runs.map((r) => ({ ...r, text: breakable(r.text.normalize('NFC')) })), ...where };
      case 'item':
        return { type: b.type, marker: b.marker, depth: b.depth, runs: b.runs.map((r) => ({ ...r, text: breakable(r.text.normalize('NFC')) })), ...where };
    }
  });
  const result = await engine.typeset(DOCUMENT_TEMPLATE, {
    title: input.title.normalize('NFC'),
    authors: input.authors ?? [],
    keywords: input.keywords ?? [],
    lang,
    region,
    paper: input.paper,
    margin: input.margin,
    size: input.size,
    font: fontList(input.style, language),
    colors: input.colors,
    blocks,
  });
  const preflight = await preflightPdf(result.pdf, {});
  if (!preflight.passed) return { ok: false, reason: preflightFailure(preflight), missing: [] };
  return { ok: true, pdf: result.pdf, pages: result.pages, preflight };
}
