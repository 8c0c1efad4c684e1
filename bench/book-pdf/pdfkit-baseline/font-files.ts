// The font files, all shipped inside npm packages (nothing downloaded at run time):
// - dejavu-fonts-ttf: DejaVu Serif, Sans and Sans Mono in four faces each (Latin with every European
//   diacritic, Greek, Cyrillic, Vietnamese, and more);
// - @chinese-fonts/syst: Source Han Serif CN (SIL OFL), split by its publisher into a few hundred small
//   woff2 pieces, each covering the Unicode ranges its result.css names. A Han character is drawn with the
//   piece that holds it, so only those pieces are read, and pdfkit subsets each to the glyphs used.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type FontFamily = 'serif' | 'sans' | 'mono';

/** What pdfkit's font engine (fontkit) tells about a font: enough to choose one per character. */
interface GlyphCoverage {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

const DEJAVU_FILES: Record<FontFamily, [regular: string, bold: string, italic: string, boldItalic: string]> = {
  serif: ['DejaVuSerif', 'DejaVuSerif-Bold', 'DejaVuSerif-Italic', 'DejaVuSerif-BoldItalic'],
  sans: ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSans-Oblique', 'DejaVuSans-BoldOblique'],
  mono: ['DejaVuSansMono', 'DejaVuSansMono-Bold', 'DejaVuSansMono-Oblique', 'DejaVuSansMono-BoldOblique'],
};

// Literal require.resolve calls: Nx reads them to list these packages in each service's generated package.json.
const dejaVuDir = () => path.dirname(require.resolve('dejavu-fonts-ttf/package.json'));
const sourceHanDir = () => path.dirname(require.resolve('@chinese-fonts/syst/package.json'));

/** fontkit as pdfkit itself resolves it (pdfkit's own dependency, so both always agree on a font). */
let fontkit: { create(buffer: Buffer): GlyphCoverage } | undefined;
const fontEngine = () => (fontkit ??= createRequire(require.resolve('pdfkit'))('fontkit') as { create(buffer: Buffer): GlyphCoverage });

const bytes = new Map<string, Buffer>();
const coverage = new Map<string, GlyphCoverage>();

/** A font file's bytes, read once per process (pdfkit parses them again per document, lazily). */
export function fontBytes(file: string): Buffer {
  let data = bytes.get(file);
  if (!data) {
    data = readFileSync(file);
    bytes.set(file, data);
  }
  return data;
}

export function hasGlyph(file: string, codePoint: number): boolean {
  let font = coverage.get(file);
  if (!font) {
    font = fontEngine().create(fontBytes(file));
    coverage.set(file, font);
  }
  return font.hasGlyphForCodePoint(codePoint);
}

/** The DejaVu file of a family in a weight and slant. */
export function dejaVuFile(family: FontFamily, bold: boolean, italic: boolean): string {
  const names = DEJAVU_FILES[family];
  const name = bold && italic ? names[3] : bold ? names[1] : italic ? names[2] : names[0];
  return path.join(dejaVuDir(), 'ttf', `${name}.ttf`);
}

interface CjkIndex {
  dir: string;
  /** Sorted, non-overlapping ranges: [first, last, index into files]. */
  ranges: [number, number, number][];
  files: string[];
}

let cjk: CjkIndex | undefined;

/** The pieces of Source Han Serif and the code points each holds, from the package's result.css. */
function cjkIndex(): CjkIndex {
  if (cjk) return cjk;
  const dir = path.join(sourceHanDir(), 'dist', 'SourceHanSerifCN');
  const css = readFileSync(path.join(dir, 'result.css'), 'utf8');
  const files: string[] = [];
  const ranges: [number, number, number][] = [];
  for (const [, face = ''] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const file = /url\("?\.\/([\w.-]+\.woff2)"?\)/.exec(face)?.[1];
    const unicodeRange = /unicode-range:([^;}]*)/.exec(face)?.[1];
    if (!file || !unicodeRange) continue;
    const index = files.push(file) - 1;
    for (const part of unicodeRange.split(',')) {
      const [, first, last] = /U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?/.exec(part) ?? [];
      if (first) ranges.push([parseInt(first, 16), parseInt(last ?? first, 16), index]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  cjk = { dir, ranges, files };
  return cjk;
}

/** The Source Han Serif piece that draws this code point, or null when none does. */
export function cjkFileFor(codePoint: number): string | null {
  const { dir, ranges, files } = cjkIndex();
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last, index] = ranges[mid] ?? [0, -1, 0];
    if (codePoint < first) hi = mid - 1;
    else if (codePoint > last) lo = mid + 1;
    else return path.join(dir, files[index] ?? '');
  }
  return null;
}
