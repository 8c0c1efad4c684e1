// An independent PDF reader for tests: MuPDF's own WebAssembly build (npm `mupdf`), run in a child Node
// process (it is an ES module with top-level await, which Jest's sandbox cannot load). It reports what a
// print shop or a reader's program sees: page boxes, the text MuPDF extracts, every glyph drawn (font,
// glyph id, Unicode, position), the bounds of all ink, and optionally PNG renderings of chosen pages
// written to an artefact folder for a person to look at.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export type Rect = [number, number, number, number];

export interface MupdfGlyph {
  font: string;
  gid: number;
  char: string;
  /** Origin in page space (points, y down), and the glyph's advance box. */
  x: number;
  y: number;
  bbox: Rect;
}

export interface MupdfLine {
  text: string;
  bbox: Rect;
}

export interface MupdfPage {
  mediaBox: Rect;
  trimBox: Rect;
  bleedBox: Rect;
  text: string;
  lines: MupdfLine[];
  glyphs: MupdfGlyph[];
  /** Union of every painted area (text, paths, images), page space with y down; null on an empty page. */
  ink: Rect | null;
  /** The same for text only. */
  textInk: Rect | null;
}

export interface MupdfDocument {
  pages: MupdfPage[];
  title: string | null;
  author: string | null;
  /** PNG files written, by page index. */
  renders: Record<number, string>;
}

export interface ReadOptions {
  /** Page indexes (0-based) to render to PNG. */
  render?: number[];
  /** Folder for the PNGs (created); required with `render`. */
  artefactDir?: string;
  /** File name prefix of the PNGs. */
  name?: string;
  /** Collect glyphs (default true; large books may skip). */
  glyphs?: boolean;
}

const SCRIPT = String.raw`
const [mupdfPath, file, optionsJson] = process.argv.slice(1);
const mupdf = await import(mupdfPath);
const fs = await import('node:fs');
const path = await import('node:path');
const options = JSON.parse(optionsJson);
const doc = mupdf.Document.openDocument(fs.readFileSync(file), 'application/pdf');
const union = (a, b) => (a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : b);
const round = (r) => r.map((v) => Math.round(v * 1000) / 1000);
const pages = [];
const renders = {};
for (let i = 0; i < doc.countPages(); i++) {
  const page = doc.loadPage(i);
  let ink = null;
  let textInk = null;
  const glyphs = [];
  const add = (r, isText) => {
    if (!r || !(r[2] > r[0]) || !(r[3] > r[1]) || !r.every(Number.isFinite)) return;
    ink = union(ink, r);
    if (isText) textInk = union(textInk, r);
  };
  const onText = (text, ctm) => {
    add(text.getBounds(null, ctm), true);
    if (options.glyphs === false) return;
    text.walk({
      showGlyph(font, trm, gid, unicode) {
        const m = mupdf.Matrix.concat(trm, ctm);
        const size = Math.hypot(m[0], m[1]) || Math.hypot(m[2], m[3]);
        glyphs.push({ font: font.getName(), gid, char: unicode > 0 ? String.fromCodePoint(unicode) : '', x: m[4], y: m[5], bbox: round([m[4], m[5] - size, m[4] + size * 0.5, m[5]]) });
      },
    });
  };
  const device = new mupdf.Device({
    fillPath(p, evenOdd, ctm) { add(p.getBounds(null, ctm), false); },
    strokePath(p, stroke, ctm) { add(p.getBounds(stroke, ctm), false); },
    fillText(text, ctm) { onText(text, ctm); },
    strokeText(text, stroke, ctm) { onText(text, ctm); },
    fillImage(image, ctm) { add(mupdf.Rect.transform([0, 0, 1, 1], ctm), false); },
    fillImageMask(image, ctm) { add(mupdf.Rect.transform([0, 0, 1, 1], ctm), false); },
    fillShade(shade, ctm) { add(shade.getBounds ? shade.getBounds(ctm) : null, false); },
  });
  page.run(device, mupdf.Matrix.identity);
  device.close();
  const st = page.toStructuredText('preserve-whitespace');
  const lines = [];
  let current = null;
  st.walk({
    beginLine(bbox) { current = { text: '', bbox: round(bbox) }; },
    onChar(c) { if (current) current.text += c; },
    endLine() { if (current) lines.push(current); current = null; },
  });
  pages.push({
    mediaBox: round(page.getBounds('MediaBox')),
    trimBox: round(page.getBounds('TrimBox')),
    bleedBox: round(page.getBounds('BleedBox')),
    text: st.asText(),
    lines,
    glyphs,
    ink: ink && round(ink),
    textInk: textInk && round(textInk),
  });
  if ((options.render || []).includes(i)) {
    const pix = page.toPixmap(mupdf.Matrix.scale(1.5, 1.5), mupdf.ColorSpace.DeviceRGB, false, true);
    const out = path.join(options.artefactDir, (options.name || 'page') + '-p' + (i + 1) + '.png');
    fs.writeFileSync(out, pix.asPNG());
    renders[i] = out;
  }
}
const meta = (key) => { try { return doc.getMetaData(key) || null; } catch { return null; } };
process.stdout.write(JSON.stringify({ pages, title: meta('info:Title'), author: meta('info:Author'), renders }));
`;

/** Read a PDF with MuPDF in a child process. */
export async function readPdfWithMupdf(pdf: Uint8Array, options: ReadOptions = {}): Promise<MupdfDocument> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mupdf-read-'));
  try {
    const file = path.join(dir, 'file.pdf');
    await writeFile(file, pdf);
    if (options.render?.length) {
      if (!options.artefactDir) throw new Error('artefactDir is required to render pages');
      mkdirSync(options.artefactDir, { recursive: true });
    }
    const mupdf = pathToFileURL(require.resolve('mupdf')).href;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT, mupdf, file, JSON.stringify(options)], { maxBuffer: 512 * 1024 * 1024 });
    return JSON.parse(stdout) as MupdfDocument;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where tests write what a person should look at (git-ignored): `<repo>/test-artefacts/<area>`. */
export function artefactDir(area: string): string {
  return path.join(path.resolve(__dirname, '../../..'), 'test-artefacts', area);
}
