// Writes and measures text on a pdfkit document in any script: the text is cut into runs, each drawn with
// the first font of a fallback chain that has its characters (the style's DejaVu face, then DejaVu Sans,
// then the Source Han Serif piece for Han and other CJK characters). Fonts are registered with the
// document on first use and embedded as subsets, so a PDF carries only the glyphs it shows.
//
// The writer keeps a current style, like pdfkit keeps a current font: `use(style)` then `text(...)`.
import type PDFDocument from 'pdfkit';
import { cjkFileFor, dejaVuFile, fontBytes, hasGlyph, type FontFamily } from './font-files';

export type { FontFamily } from './font-files';

export interface FontStyle {
  family: FontFamily;
  bold?: boolean;
  italic?: boolean;
}

export interface TextRun {
  /** The registered font name to draw it with. */
  font: string;
  text: string;
}

type Doc = InstanceType<typeof PDFDocument>;
type TextOptions = PDFKit.Mixins.TextOptions;

/** Stand-in while measuring CJK text with a DejaVu face: one em wide, like a Han character. */
const EM_WIDE = '\u2014';
/** Characters a line may break after without a space (CJK ideographs, kana, Hangul, fullwidth forms). */
const CJK = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFF}]/u;

/** Words (with their trailing spaces) and single CJK characters: the places a line may break. */
function breakTokens(paragraph: string): string[] {
  const tokens: string[] = [];
  for (const ch of paragraph) {
    const last = tokens[tokens.length - 1];
    if (last !== undefined && (/\s/.test(ch) || (!CJK.test(ch) && !/\s$/.test(last) && !CJK.test([...last].pop() ?? '')))) tokens[tokens.length - 1] = last + ch;
    else tokens.push(ch);
  }
  return tokens;
}

export interface PdfText {
  /** Make this style current and select its main face (the size stays the document's). */
  use(style: FontStyle): PdfText;
  readonly style: FontStyle;
  /** The registered font last selected on the document (to put back after drawing elsewhere on the page). */
  readonly currentFont: string;
  /** Put back a style and the font that was selected (saved from `style` and `currentFont`), e.g. after a page header. */
  resume(style: FontStyle, font: string): PdfText;
  /** `text` cut into runs of one font each, in the current style (NFC first, so composed accents stay whole). */
  runs(text: string): TextRun[];
  /** doc.text for any script: one call per run, continued across them; `options.continued` applies to the last. */
  text(text: string, options?: TextOptions, x?: number, y?: number): Doc;
  /** Width of `text` at the current size, each run measured in its own font. */
  widthOfString(text: string, options?: TextOptions): number;
  /** Height `text` takes when wrapped at `options.width`, measured with the main face (CJK counted one em wide). */
  heightOfString(text: string, options?: TextOptions): number;
}

export function createPdfText(doc: Doc, initial: FontStyle = { family: 'serif' }): PdfText {
  const registered = new Set<string>();
  let style = initial;
  let current = '';

  /** Registered name of a font file (registered with this document on first use). */
  const nameOf = (file: string): string => {
    const name = file.slice(file.lastIndexOf('/') + 1).replace(/\.(ttf|woff2)$/, '');
    if (!registered.has(name)) {
      doc.registerFont(name, fontBytes(file));
      registered.add(name);
    }
    return name;
  };
  // Always set on the document (a cached lookup in pdfkit): other code may have changed its font meanwhile.
  const select = (name: string) => {
    doc.font(name);
    current = name;
  };

  /** The font file that draws one code point in a style: its face, DejaVu Sans, the CJK piece, else the face (a visible box). */
  const fileFor = (codePoint: number, s: FontStyle): string => {
    const face = dejaVuFile(s.family, !!s.bold, !!s.italic);
    if (hasGlyph(face, codePoint)) return face;
    const sans = dejaVuFile('sans', !!s.bold, !!s.italic);
    if (hasGlyph(sans, codePoint)) return sans;
    return cjkFileFor(codePoint) ?? face;
  };

  const runsOf = (text: string, s: FontStyle): { file: string; text: string }[] => {
    const out: { file: string; text: string }[] = [];
    for (const ch of text.normalize('NFC')) {
      const cp = ch.codePointAt(0) ?? 0;
      const last = out[out.length - 1];
      // Line breaks (pdfkit splits on them before drawing) and spaces the run's font has stay in that run:
      // fewer runs wrap better. A CJK piece may have no space, which would print as a blank box.
      const stays = last && (cp === 10 || cp === 13 || (cp === 32 && hasGlyph(last.file, cp)));
      const file = stays ? last.file : fileFor(cp, s);
      if (last && last.file === file) last.text += ch;
      else out.push({ file, text: ch });
    }
    return out;
  };

  /** Mixed-font text centred or right-aligned: greedy line breaks measured run by run, each line placed by hand. */
  const aligned = (text: string, options: TextOptions, x?: number, y?: number): Doc => {
    const left = x ?? doc.x;
    let top = y ?? doc.y;
    const width = options.width ?? doc.page.width - left - doc.page.margins.right;
    const lines: string[] = [];
    for (const paragraph of text.normalize('NFC').split('\n')) {
      let line = '';
      for (const token of breakTokens(paragraph)) {
        if (line && api.widthOfString((line + token).trimEnd()) > width) {
          lines.push(line.trimEnd());
          line = token;
        } else line += token;
      }
      lines.push(line.trimEnd());
    }
    const main = nameOf(dejaVuFile(style.family, !!style.bold, !!style.italic));
    for (const line of lines) {
      select(main);
      const height = doc.currentLineHeight(true) + (options.lineGap ?? 0);
      if (top + height > doc.page.height - doc.page.margins.bottom && top > doc.page.margins.top) {
        doc.addPage();
        top = doc.y;
      }
      const w = api.widthOfString(line);
      let at = options.align === 'center' ? left + (width - w) / 2 : left + width - w;
      for (const run of api.runs(line)) {
        select(run.font);
        doc.text(run.text, at, top, { lineBreak: false });
        at += doc.widthOfString(run.text);
      }
      top += height;
    }
    select(main);
    doc.x = left;
    doc.y = top + (options.paragraphGap ?? 0);
    return doc;
  };

  const api: PdfText = {
    use(next) {
      style = next;
      select(nameOf(dejaVuFile(next.family, !!next.bold, !!next.italic)));
      return api;
    },
    resume(saved, font) {
      style = saved;
      if (font) select(font);
      else api.use(saved);
      return api;
    },
    get style() {
      return style;
    },
    get currentFont() {
      return current;
    },
    runs(text) {
      return runsOf(text, style).map((r) => ({ font: nameOf(r.file), text: r.text }));
    },
    text(text, options = {}, x, y) {
      const runs = api.runs(text);
      // pdfkit centres or right-aligns each font's fragment on its own, scattering a mixed line: such
      // text is wrapped and placed here, line by line.
      if (runs.length > 1 && (options.align === 'center' || options.align === 'right') && !options.continued) return aligned(text, options, x, y);
      if (runs.length === 0) {
        select(nameOf(dejaVuFile(style.family, !!style.bold, !!style.italic)));
        return x === undefined ? doc.text('', options) : doc.text('', x, y, options);
      }
      runs.forEach((run, i) => {
        select(run.font);
        const last = i === runs.length - 1;
        const opts = { ...options, continued: last ? options.continued : true };
        if (i === 0 && x !== undefined) doc.text(run.text, x, y, opts);
        else doc.text(run.text, opts);
      });
      return doc;
    },
    widthOfString(text, options) {
      const before = current;
      let width = 0;
      for (const run of api.runs(text)) {
        select(run.font);
        width += doc.widthOfString(run.text, options);
      }
      if (before) select(before);
      return width;
    },
    heightOfString(text, options) {
      const before = current;
      const face = dejaVuFile(style.family, !!style.bold, !!style.italic);
      select(nameOf(face));
      const measured = runsOf(text, style)
        .map((r) => (r.file === face || r.file.endsWith('.ttf') ? r.text : EM_WIDE.repeat([...r.text].length)))
        .join('');
      const height = doc.heightOfString(measured, options);
      if (before) select(before);
      return height;
    },
  };
  return api;
}
