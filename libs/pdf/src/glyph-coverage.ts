// Which characters the bundled fonts can draw, checked before anything is typeset (CONTRACTS §11
// preflight: "no character without a glyph"). Typst draws a character no listed font has as the first
// font's empty box (.notdef) and says nothing, so the text is checked against the fonts' own character
// maps first and a character none of them has is reported by its Unicode name.
import type { TextStyle } from './fonts';
import { bundledFamilies, fontBytes, fontFilesOf, fontList } from './fonts';
import { characterName } from './unicode-names';

/** What fontkit tells about a font: its character map and PostScript name. */
interface FontkitFont {
  characterSet: number[];
  postscriptName: string | null;
}

let fontkit: { create(buffer: Buffer): FontkitFont } | undefined;
const fontEngine = () => (fontkit ??= require('fontkit') as { create(buffer: Buffer): FontkitFont });

/** Code points of one font file, kept as a set (the file itself is not kept: the CJK faces are 15 MB each). */
const maps = new Map<string, Set<number>>();

function characterMap(file: string): Set<number> {
  let set = maps.get(file);
  if (!set) {
    set = new Set(fontEngine().create(fontBytes(file)).characterSet);
    maps.set(file, set);
  }
  return set;
}

/**
 * Characters that need no glyph: white space and line breaks, controls, and the default-ignorable code
 * points (joiners, variation selectors, bidi marks) that shaping consumes.
 */
const NEEDS_NO_GLYPH = /[\s\p{Cc}\p{Default_Ignorable_Code_Point}]/u;

export interface MissingCharacter {
  /** The character itself. */
  char: string;
  /** U+XXXX. */
  codePoint: string;
  /** Its Unicode name, e.g. THAI CHARACTER KO KAI (the code point when the name table is unavailable). */
  name: string;
  /** How often it occurs in the text. */
  count: number;
}

/** Characters of `text` that no font of the style's list draws, in order of first appearance. */
export function missingCharacters(text: string, style: TextStyle = 'serif', language = 'en'): MissingCharacter[] {
  const files = fontFilesOf(fontList(style, language));
  const sets = files.map(characterMap);
  const missing = new Map<string, MissingCharacter>();
  for (const char of text.normalize('NFC')) {
    if (NEEDS_NO_GLYPH.test(char)) continue;
    const known = missing.get(char);
    if (known) {
      known.count += 1;
      continue;
    }
    const cp = char.codePointAt(0)!;
    if (sets.some((s) => s.has(cp))) continue;
    const codePoint = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    missing.set(char, { char, codePoint, name: characterName(cp) ?? codePoint, count: 1 });
  }
  return [...missing.values()];
}

/** One sentence naming the characters no bundled font has (at most the first ten). */
export function describeMissing(missing: readonly MissingCharacter[]): string {
  const shown = missing.slice(0, 10).map((m) => `${m.codePoint} ${m.name} (“${m.char}”)`);
  const more = missing.length > 10 ? ` and ${missing.length - 10} more` : '';
  return `No bundled font can draw ${missing.length === 1 ? 'this character' : 'these characters'}: ${shown.join(', ')}${more}`;
}

let postscriptNames: Set<string> | undefined;

/** PostScript names of every bundled face: a PDF's embedded fonts must all be among them. */
export function bundledPostscriptNames(): Set<string> {
  if (postscriptNames) return postscriptNames;
  const names = new Set<string>();
  for (const family of bundledFamilies().values()) {
    for (const dir of family.dirs) {
      const stem = family.regular.slice(family.regular.lastIndexOf('/') + 1).replace(/_400Regular\.ttf$/, '');
      const face = dir.slice(dir.lastIndexOf('/') + 1);
      const file = `${dir}/${stem}_${face}.ttf`;
      // The name table is near the start of the file; fontkit reads it without the glyphs.
      const name = fontEngine().create(fontBytes(file)).postscriptName;
      if (name) names.add(name);
    }
  }
  postscriptNames = names;
  return names;
}
