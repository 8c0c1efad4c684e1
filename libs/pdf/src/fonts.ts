// The fonts every PDF of the platform is typeset with, all shipped inside npm packages (SIL Open Font
// License; nothing is downloaded at run time), regular and bold (and italics where the family has them):
//
// | family                | package                                 | draws                                          |
// |-----------------------|-----------------------------------------|------------------------------------------------|
// | Noto Serif / Sans     | @expo-google-fonts/noto-serif, -sans    | Latin (every European diacritic, Vietnamese), Greek, Cyrillic |
// | Noto Sans Mono        | @expo-google-fonts/noto-sans-mono       | the same, monospaced                           |
// | Scheherazade New      | @expo-google-fonts/scheherazade-new     | Arabic (Naskh; each letter one glyph, so readers extract it back) |
// | Noto Serif Hebrew     | @expo-google-fonts/noto-serif-hebrew    | Hebrew                                         |
// | Noto Serif Devanagari | @expo-google-fonts/noto-serif-devanagari| Devanagari (Hindi, Marathi, Nepali, ...)       |
// | Noto Serif SC         | @expo-google-fonts/noto-serif-sc        | every CJK Unified Ideograph (Simplified and Traditional characters), kana |
// | Noto Serif KR         | @expo-google-fonts/noto-serif-kr        | Hangul (and Hanja, kana)                       |
// | Noto Emoji            | @expo-google-fonts/noto-emoji           | emoji, drawn in one ink (they print)           |
//
// CJK is the weight that matters (about 15 MB per face): one Han font (SC, the whole URO block) and one
// Hangul font, in the two weights used, instead of a font per region. Japanese and Traditional Chinese
// text is drawn with the SC font's glyph forms; a Korean book puts KR first so Hanja take Korean forms.
//
// Only these fonts are ever named in a document, with Typst's fallback to other fonts switched off, and
// every character is checked against their character maps before typesetting (glyph-coverage.ts), so a
// font installed on the machine can never stand in for one of them.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type FontRole = 'serif' | 'sans' | 'mono' | 'arabic' | 'hebrew' | 'devanagari' | 'han' | 'hangul' | 'emoji';

export interface BundledFamily {
  role: FontRole;
  /** The family name Typst knows the font by. */
  family: string;
  /** Directories holding the faces used (each expo package keeps one face per folder). */
  dirs: string[];
  /** The regular face's file: its character map decides coverage. */
  regular: string;
}

interface FamilySpec {
  role: FontRole;
  family: string;
  packageDir: () => string;
  /** File name stem inside each face folder, e.g. NotoSerif -> 400Regular/NotoSerif_400Regular.ttf. */
  stem: string;
  faces: readonly string[];
}

const BOLD_AND_REGULAR = ['400Regular', '700Bold'] as const;
const WITH_ITALICS = ['400Regular', '700Bold', '400Regular_Italic', '700Bold_Italic'] as const;

// Literal require.resolve calls: Nx reads them to list these packages in each service's generated package.json.
const SPECS: readonly FamilySpec[] = [
  { role: 'serif', family: 'Noto Serif', stem: 'NotoSerif', faces: WITH_ITALICS, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-serif/package.json')) },
  { role: 'sans', family: 'Noto Sans', stem: 'NotoSans', faces: WITH_ITALICS, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-sans/package.json')) },
  { role: 'mono', family: 'Noto Sans Mono', stem: 'NotoSansMono', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-sans-mono/package.json')) },
  { role: 'arabic', family: 'Scheherazade New', stem: 'ScheherazadeNew', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/scheherazade-new/package.json')) },
  { role: 'hebrew', family: 'Noto Serif Hebrew', stem: 'NotoSerifHebrew', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-serif-hebrew/package.json')) },
  { role: 'devanagari', family: 'Noto Serif Devanagari', stem: 'NotoSerifDevanagari', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-serif-devanagari/package.json')) },
  { role: 'han', family: 'Noto Serif SC', stem: 'NotoSerifSC', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-serif-sc/package.json')) },
  { role: 'hangul', family: 'Noto Serif KR', stem: 'NotoSerifKR', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-serif-kr/package.json')) },
  { role: 'emoji', family: 'Noto Emoji', stem: 'NotoEmoji', faces: BOLD_AND_REGULAR, packageDir: () => path.dirname(require.resolve('@expo-google-fonts/noto-emoji/package.json')) },
];

let families: Map<FontRole, BundledFamily> | undefined;

/** Every bundled family by role, with the folders and files resolved from node_modules. */
export function bundledFamilies(): Map<FontRole, BundledFamily> {
  if (families) return families;
  families = new Map(
    SPECS.map((spec) => {
      const dir = spec.packageDir();
      return [
        spec.role,
        {
          role: spec.role,
          family: spec.family,
          dirs: spec.faces.map((face) => path.join(dir, face)),
          regular: path.join(dir, '400Regular', `${spec.stem}_400Regular.ttf`),
        },
      ];
    }),
  );
  return families;
}

/** The folders Typst is given: only the faces used, so its font book holds nothing else of ours. */
export function fontDirectories(): string[] {
  return [...bundledFamilies().values()].flatMap((f) => f.dirs);
}

/** The body styles a document chooses from (a story's serif, sans or monospaced typeface). */
export type TextStyle = 'serif' | 'sans' | 'mono';

/** Writing systems a paragraph or book may be set in; they decide which CJK font leads. */
const HANGUL_FIRST = new Set(['ko']);

/**
 * The font list for a style, in the order Typst tries them per character: the style's Latin font, then
 * one font per script, the CJK pair ordered by the language, emoji last (its digits and # never win).
 */
export function fontList(style: TextStyle, language = 'en'): string[] {
  const f = bundledFamilies();
  const name = (role: FontRole) => f.get(role)!.family;
  const cjk = HANGUL_FIRST.has(language.toLowerCase().split('-')[0] ?? '') ? [name('hangul'), name('han')] : [name('han'), name('hangul')];
  return [name(style), name('arabic'), name('hebrew'), name('devanagari'), ...cjk, name('emoji')];
}

/** The regular face files behind a font list, in its order. */
export function fontFilesOf(list: readonly string[]): string[] {
  const byFamily = new Map([...bundledFamilies().values()].map((f) => [f.family, f.regular]));
  return list.map((family) => {
    const file = byFamily.get(family);
    if (!file) throw new Error(`${family} is not a bundled font`);
    return file;
  });
}

/** A font file's bytes (not kept: callers keep what they derive from them, the CJK faces are 15 MB each). */
export function fontBytes(file: string): Buffer {
  return readFileSync(file);
}
