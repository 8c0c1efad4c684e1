// Reading back a finished PDF for the preflight (CONTRACTS §11) and writing its print boxes. pdf-lib
// (MIT) parses the file; this module looks at what a print shop's preflight looks at: the page boxes,
// every font resource (embedded? subset? one of ours?), and every glyph drawn (glyph 0, .notdef, is the
// empty box a font draws for a character it lacks).
//
// Typst does not write TrimBox or BleedBox (Typst 0.14 has no bleed), so the boxes are set here after
// typesetting: pdf-lib loads the file, sets them on each page and writes it out again.
import type { PDFDict, PDFDocument, PDFObject } from 'pdf-lib';

// pdf-lib loads on the first PDF, not when a service starts (about 200 ms).
let pdfLib: typeof import('pdf-lib') | undefined;
const lib = () => (pdfLib ??= require('pdf-lib') as typeof import('pdf-lib'));

export type Box = [number, number, number, number];

export interface PrintBoxes {
  trimBox: Box;
  /** Omitted for an interior (no bleed: the BleedBox is the TrimBox). */
  bleedBox?: Box;
}

/** The same PDF with TrimBox and BleedBox set on every page (PDF 1.3+ page boxes, in points). */
export async function setPrintBoxes(pdf: Uint8Array, boxes: PrintBoxes): Promise<Buffer> {
  const doc = await lib().PDFDocument.load(pdf, { updateMetadata: false });
  const [tx0, ty0, tx1, ty1] = boxes.trimBox;
  const [bx0, by0, bx1, by1] = boxes.bleedBox ?? boxes.trimBox;
  for (const page of doc.getPages()) {
    page.setTrimBox(tx0, ty0, tx1 - tx0, ty1 - ty0);
    page.setBleedBox(bx0, by0, bx1 - bx0, by1 - by0);
  }
  // Object streams keep the file as compact as Typst wrote it.
  return Buffer.from(await doc.save({ useObjectStreams: true, addDefaultPage: false, updateFieldAppearances: false }));
}

export interface FontReport {
  /** BaseFont as written, subset tag included (ABCDEF+NotoSerif-Regular). */
  name: string;
  /** The PostScript name without the subset tag. */
  postscriptName: string;
  embedded: boolean;
  subset: boolean;
  /** Glyphs drawn with glyph id 0 (.notdef): a character the font lacks. */
  notdefGlyphs: number;
}

export interface PageReport {
  mediaBox: Box | null;
  trimBox: Box | null;
  bleedBox: Box | null;
}

export interface PdfReport {
  pages: PageReport[];
  fonts: FontReport[];
}

const SUBSET_TAG = /^[A-Z]{6}\+/;

function boxOf(dict: PDFDict, name: string, doc: PDFDocument): Box | null {
  const { PDFArray, PDFName, PDFNumber } = lib();
  let node: PDFDict | undefined = dict;
  // MediaBox is inheritable from the page tree; TrimBox and BleedBox are not, but a lookup up the tree is harmless.
  for (let depth = 0; node && depth < 32; depth++) {
    const value = node.get(PDFName.of(name));
    if (value) {
      const array = doc.context.lookup(value);
      if (array instanceof PDFArray && array.size() === 4) {
        return [0, 1, 2, 3].map((i) => {
          const n = doc.context.lookup(array.get(i));
          return n instanceof PDFNumber ? n.asNumber() : NaN;
        }) as Box;
      }
      return null;
    }
    if (name !== 'MediaBox') return null;
    const parent = node.get(PDFName.of('Parent'));
    node = parent ? (doc.context.lookup(parent) as PDFDict | undefined) : undefined;
  }
  return null;
}

/** The bytes of a content stream (or of an array of them), decoded. */
function contentBytes(doc: PDFDocument, value: PDFObject | undefined): Uint8Array[] {
  const { PDFArray, PDFRawStream, PDFStream, decodePDFRawStream } = lib();
  if (!value) return [];
  const object = doc.context.lookup(value);
  if (object instanceof PDFArray) return object.asArray().flatMap((item) => contentBytes(doc, item));
  if (object instanceof PDFRawStream) return [decodePDFRawStream(object).decode()];
  if (object instanceof PDFStream) return [object.getContents()];
  return [];
}

interface FontState {
  report: FontReport;
  /** Bytes per character code: 2 for Type0 fonts with Identity-H (what Typst writes), else 1. */
  codeBytes: number;
}

/** Read every page: boxes, fonts, and the glyphs shown with each font. */
export async function inspectPdf(pdf: Uint8Array): Promise<PdfReport> {
  const { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } = lib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const fonts = new Map<string, FontState>();
  const fontOf = (ref: PDFObject): FontState | undefined => {
    const key = ref instanceof PDFRef ? ref.toString() : String(ref);
    const known = fonts.get(key);
    if (known) return known;
    const dict = doc.context.lookup(ref);
    if (!(dict instanceof PDFDict)) return undefined;
    const name = String(doc.context.lookup(dict.get(PDFName.of('BaseFont'))) ?? '').replace(/^\//, '');
    const subtype = String(dict.get(PDFName.of('Subtype')) ?? '');
    let descriptorHolder = dict;
    if (subtype === '/Type0') {
      const descendants = doc.context.lookup(dict.get(PDFName.of('DescendantFonts')));
      const first = descendants instanceof PDFArray ? doc.context.lookup(descendants.get(0)) : undefined;
      if (first instanceof PDFDict) descriptorHolder = first;
    }
    const descriptor = doc.context.lookup(descriptorHolder.get(PDFName.of('FontDescriptor')));
    const embedded = descriptor instanceof PDFDict && ['FontFile', 'FontFile2', 'FontFile3'].some((k) => descriptor.get(PDFName.of(k)) !== undefined);
    const encoding = String(dict.get(PDFName.of('Encoding')) ?? '');
    const state: FontState = {
      report: { name, postscriptName: name.replace(SUBSET_TAG, '').replace(/-Identity-H$/, ''), embedded: embedded || subtype === '/Type3', subset: SUBSET_TAG.test(name) || subtype === '/Type3', notdefGlyphs: 0 },
      codeBytes: subtype === '/Type0' && /Identity-[HV]/.test(encoding) ? 2 : 1,
    };
    fonts.set(key, state);
    return state;
  };

  const scan = (bytes: Uint8Array[], resources: PDFDict | undefined, seen: Set<string>) => {
    const fontDict = resources ? doc.context.lookup(resources.get(PDFName.of('Font'))) : undefined;
    const xobjects = resources ? doc.context.lookup(resources.get(PDFName.of('XObject'))) : undefined;
    const fontsByName = new Map<string, FontState>();
    if (fontDict instanceof PDFDict) {
      for (const [key, value] of fontDict.entries()) {
        const state = fontOf(value);
        if (state) fontsByName.set(key.asString(), state);
      }
    }
    let current: FontState | undefined;
    for (const data of bytes) {
      for (const op of contentOperations(data)) {
        if (op.operator === 'Tf' && typeof op.operands[0] === 'string') current = fontsByName.get(op.operands[0]);
        else if ((op.operator === 'Tj' || op.operator === "'" || op.operator === '"' || op.operator === 'TJ') && current) {
          for (const operand of op.operands) {
            const strings = operand instanceof Array ? operand.filter((x): x is Uint8Array => x instanceof Uint8Array) : operand instanceof Uint8Array ? [operand] : [];
            for (const s of strings) current.report.notdefGlyphs += countNotdef(s, current.codeBytes);
          }
        } else if (op.operator === 'Do' && typeof op.operands[0] === 'string' && xobjects instanceof PDFDict) {
          const ref = xobjects.get(PDFName.of(op.operands[0].slice(1)));
          const key = ref?.toString() ?? '';
          const xobject = ref ? doc.context.lookup(ref) : undefined;
          if (!key || seen.has(key) || !(xobject instanceof PDFRawStream)) continue;
          if (String(xobject.dict.get(PDFName.of('Subtype'))) !== '/Form') continue;
          seen.add(key);
          const inner = doc.context.lookup(xobject.dict.get(PDFName.of('Resources')));
          scan([decodePDFRawStream(xobject).decode()], inner instanceof PDFDict ? inner : resources, seen);
        }
      }
    }
  };

  const pages: PageReport[] = [];
  for (const page of doc.getPages()) {
    const node = page.node;
    pages.push({ mediaBox: boxOf(node, 'MediaBox', doc), trimBox: boxOf(node, 'TrimBox', doc), bleedBox: boxOf(node, 'BleedBox', doc) });
    scan(contentBytes(doc, node.get(PDFName.of('Contents'))), node.Resources(), new Set());
  }
  return { pages, fonts: [...fonts.values()].map((f) => f.report) };
}

function countNotdef(s: Uint8Array, codeBytes: number): number {
  let n = 0;
  for (let i = 0; i + codeBytes <= s.length; i += codeBytes) {
    if (codeBytes === 2 ? s[i] === 0 && s[i + 1] === 0 : false) n += 1;
  }
  return n;
}

type Operand = string | number | Uint8Array | Operand[] | null;

interface Operation {
  operator: string;
  operands: Operand[];
}

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiter = (c: number) => c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * The operations of a content stream: a small tokenizer for what matters here (strings literal and hex,
 * names, numbers, arrays, inline dictionaries skipped as one operand, inline images skipped whole). The
 * bytes are read as one Latin-1 string: one character per byte, and slicing a token costs nothing.
 */
export function* contentOperations(bytes: Uint8Array): Generator<Operation> {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const n = data.length;
  let i = 0;
  const stack: Operand[][] = [[]];
  let dictDepth = 0;
  const push = (value: Operand) => {
    if (dictDepth === 0) stack[stack.length - 1]!.push(value);
  };
  while (i < n) {
    const c = data.charCodeAt(i);
    if (isWhite(c)) {
      i++;
      continue;
    }
    if (c === 0x25) {
      // comment to end of line
      while (i < n && data.charCodeAt(i) !== 0x0a && data.charCodeAt(i) !== 0x0d) i++;
      continue;
    }
    if (c === 0x28) {
      // literal string with escapes and balanced parentheses
      const out: number[] = [];
      let depth = 1;
      i++;
      while (i < n && depth > 0) {
        const ch = data.charCodeAt(i);
        if (ch === 0x5c) {
          const next = data.charCodeAt(i + 1);
          if (next >= 0x30 && next <= 0x37) {
            let j = i + 1;
            let value = 0;
            while (j < i + 4 && data.charCodeAt(j) >= 0x30 && data.charCodeAt(j) <= 0x37) value = value * 8 + (data.charCodeAt(j++) - 0x30);
            out.push(value & 0xff);
            i = j;
            continue;
          }
          if (next === 0x0d || next === 0x0a) {
            i += next === 0x0d && data.charCodeAt(i + 2) === 0x0a ? 3 : 2;
            continue;
          }
          out.push(ESCAPES[next] ?? next);
          i += 2;
          continue;
        }
        if (ch === 0x28) depth++;
        if (ch === 0x29 && --depth === 0) {
          i++;
          break;
        }
        out.push(ch);
        i++;
      }
      push(Uint8Array.from(out));
      continue;
    }
    if (c === 0x3c && data.charCodeAt(i + 1) === 0x3c) {
      dictDepth++;
      i += 2;
      continue;
    }
    if (c === 0x3e && data.charCodeAt(i + 1) === 0x3e) {
      dictDepth = Math.max(0, dictDepth - 1);
      if (dictDepth === 0) push(null);
      i += 2;
      continue;
    }
    if (c === 0x3c) {
      const end = data.indexOf('>', i + 1);
      let hex = data.slice(i + 1, end < 0 ? n : end).replace(/\s+/g, '');
      i = end < 0 ? n : end + 1;
      if (hex.length % 2) hex += '0';
      push(Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)));
      continue;
    }
    if (c === 0x5b) {
      if (dictDepth === 0) stack.push([]);
      i++;
      continue;
    }
    if (c === 0x5d) {
      if (dictDepth === 0 && stack.length > 1) {
        const array = stack.pop()!;
        push(array);
      }
      i++;
      continue;
    }
    // a regular token: name, number or operator
    let j = i + (c === 0x2f ? 1 : 0);
    while (j < n && !isWhite(data.charCodeAt(j)) && !isDelimiter(data.charCodeAt(j))) j++;
    const token = data.slice(i, j);
    i = Math.max(j, i + 1);
    if (c === 0x2f) push(token);
    else if (NUMBER.test(token)) push(Number(token));
    else if (dictDepth > 0) continue;
    else if (token === 'BI') {
      // inline image: skip to the EI that follows white space
      const end = data.slice(i).search(/\sEI(\s|$)/);
      i = end < 0 ? n : i + end + 3;
      stack.splice(0, stack.length, []);
    } else if (token === 'true' || token === 'false' || token === 'null') push(token === 'null' ? null : token);
    else {
      const operands = stack[0]!;
      stack.splice(0, stack.length, []);
      yield { operator: token, operands };
    }
  }
}
