// Removing the location from a photo without re-encoding it (and reading when it was taken). EXIF is a TIFF structure wherever it sits
// (JPEG APP1 and HEIC items after "Exif\0\0", PNG eXIf chunks, WebP EXIF chunks); its IFD0 points at a
// GPS IFD (tag 0x8825). We empty that IFD in place: every GPS entry and the values it points at are
// overwritten with zeros and its entry count set to 0, so readers see an empty GPS directory and the
// coordinates are physically gone. XMP packets can repeat the location (exif:GPSLatitude ...): those
// attributes and elements are blanked with spaces of the same length, so no offset moves. PNG chunk CRCs
// are recomputed afterwards. Pixels, orientation, colour profile and the other EXIF fields stay as they were.
import { crc32 } from 'node:zlib';

const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
const GPS_POINTER = 0x8825;

interface Tiff {
  start: number;
  end: number;
  little: boolean;
}

function u16(buf: Buffer, at: number, t: Tiff): number {
  return t.little ? buf.readUInt16LE(at) : buf.readUInt16BE(at);
}
function u32(buf: Buffer, at: number, t: Tiff): number {
  return t.little ? buf.readUInt32LE(at) : buf.readUInt32BE(at);
}

/** A TIFF header at `start` (within `end`), or null. */
function tiffAt(buf: Buffer, start: number, end = buf.length): Tiff | null {
  if (start + 8 > end) return null;
  const order = buf.toString('latin1', start, start + 2);
  if (order !== 'II' && order !== 'MM') return null;
  const t = { start, end, little: order === 'II' };
  return u16(buf, start + 2, t) === 42 ? t : null;
}

/** The absolute offset of the GPS IFD, or null. */
function gpsIfd(buf: Buffer, t: Tiff): number | null {
  const ifd0 = t.start + u32(buf, t.start + 4, t);
  if (ifd0 + 2 > t.end) return null;
  const n = u16(buf, ifd0, t);
  if (n > 1000 || ifd0 + 2 + n * 12 > t.end) return null;
  for (let i = 0; i < n; i += 1) {
    const entry = ifd0 + 2 + i * 12;
    if (u16(buf, entry, t) === GPS_POINTER) {
      const at = t.start + u32(buf, entry + 8, t);
      return at + 2 <= t.end ? at : null;
    }
  }
  return null;
}

/** Number of entries in the GPS IFD of this TIFF block. */
function gpsCount(buf: Buffer, t: Tiff): number {
  const at = gpsIfd(buf, t);
  return at === null ? 0 : u16(buf, at, t);
}

/** Empty the GPS IFD in place; returns how many entries went. */
function emptyGps(buf: Buffer, t: Tiff): number {
  const at = gpsIfd(buf, t);
  if (at === null) return 0;
  const n = u16(buf, at, t);
  if (n > 1000 || at + 2 + n * 12 > t.end) return 0;
  for (let i = 0; i < n; i += 1) {
    const entry = at + 2 + i * 12;
    const size = (TYPE_SIZES[u16(buf, entry + 2, t)] ?? 1) * u32(buf, entry + 4, t);
    if (size > 4) {
      const value = t.start + u32(buf, entry + 8, t);
      if (value >= t.start && value + size <= t.end) buf.fill(0, value, value + size);
    }
    buf.fill(0, entry, entry + 12);
  }
  // Count 0; the next-IFD offset a reader looks for right after it now reads 0 (the zeroed first entry).
  if (t.little) buf.writeUInt16LE(0, at);
  else buf.writeUInt16BE(0, at);
  return n;
}

/** Every EXIF TIFF block in the file: after "Exif\0\0" anywhere, and PNG eXIf / WebP EXIF chunks. */
function tiffBlocks(buf: Buffer): Tiff[] {
  const blocks: Tiff[] = [];
  for (let at = buf.indexOf('Exif\0\0', 0, 'latin1'); at !== -1; at = buf.indexOf('Exif\0\0', at + 6, 'latin1')) {
    const t = tiffAt(buf, at + 6);
    if (t) blocks.push(t);
  }
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    for (const c of pngChunks(buf)) if (c.type === 'eXIf') pushUnique(blocks, tiffAt(buf, c.data, c.data + c.length));
  }
  if (buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') {
    for (let at = 12; at + 8 <= buf.length; ) {
      const type = buf.toString('latin1', at, at + 4);
      const length = buf.readUInt32LE(at + 4);
      if (type === 'EXIF') pushUnique(blocks, tiffAt(buf, at + 8, Math.min(buf.length, at + 8 + length)));
      at += 8 + length + (length % 2);
    }
  }
  return blocks;
}

function pushUnique(blocks: Tiff[], t: Tiff | null) {
  if (t && !blocks.some((b) => b.start === t.start)) blocks.push(t);
}

function pngChunks(buf: Buffer): { type: string; start: number; data: number; length: number }[] {
  const chunks = [];
  for (let at = 8; at + 12 <= buf.length; ) {
    const length = buf.readUInt32BE(at);
    if (at + 12 + length > buf.length) break;
    chunks.push({ type: buf.toString('latin1', at + 4, at + 8), start: at, data: at + 8, length });
    at += 12 + length;
  }
  return chunks;
}

// XMP location: attributes (exif:GPSLatitude="...") and elements (<exif:GPSLatitude>...</exif:GPSLatitude>).
const XMP_GPS = /\b(?:exif|exifEX|drone-dji|Iptc4xmpExt):GPS\w*\s*=\s*"[^"]*"|<(exif|exifEX):GPS(\w*)>[^<]*<\/\1:GPS\2>|\bphotoshop:(?:City|State|Country)\s*=\s*"[^"]*"/g;

export interface GpsStripResult {
  buffer: Buffer;
  /** GPS IFD entries removed plus XMP location fields blanked. */
  removed: number;
}

/** A copy of the image without its location (see the file comment). */
export function stripLocation(input: Buffer): GpsStripResult {
  const buf = Buffer.from(input);
  let removed = 0;
  for (const t of tiffBlocks(buf)) removed += emptyGps(buf, t);
  const text = buf.toString('latin1');
  if (text.includes('GPS') && /<x:xmpmeta|<rdf:RDF/.test(text)) {
    for (const match of text.matchAll(XMP_GPS)) {
      buf.fill(0x20, match.index, match.index + match[0].length);
      removed += 1;
    }
  }
  if (removed && buf.readUInt32BE(0) === 0x89504e47) {
    for (const c of pngChunks(buf)) buf.writeUInt32BE(crc32(buf.subarray(c.start + 4, c.data + c.length)), c.data + c.length);
  }
  return { buffer: buf, removed };
}

/** GPS entries left in the image's EXIF (0 when it has none): for tests and checks. */
export function gpsEntryCount(buf: Buffer): number {
  return tiffBlocks(buf).reduce((n, t) => n + gpsCount(buf, t), 0);
}

const EXIF_POINTER = 0x8769;
const DATE_TIME_ORIGINAL = 0x9003;
const OFFSET_TIME_ORIGINAL = 0x9011;
const DATE_TIME = 0x0132;

/** ASCII value of `tag` in the IFD at `ifd`, or null. */
function asciiTag(buf: Buffer, t: Tiff, ifd: number, tag: number): string | null {
  if (ifd + 2 > t.end) return null;
  const n = u16(buf, ifd, t);
  if (n > 1000 || ifd + 2 + n * 12 > t.end) return null;
  for (let i = 0; i < n; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (u16(buf, entry, t) !== tag || u16(buf, entry + 2, t) !== 2) continue;
    const count = u32(buf, entry + 4, t);
    const at = count > 4 ? t.start + u32(buf, entry + 8, t) : entry + 8;
    if (at + count > t.end) return null;
    return buf.toString('latin1', at, at + count).replace(/\0+$/, '').trim();
  }
  return null;
}

function pointer(buf: Buffer, t: Tiff, ifd: number, tag: number): number | null {
  if (ifd + 2 > t.end) return null;
  const n = u16(buf, ifd, t);
  if (n > 1000 || ifd + 2 + n * 12 > t.end) return null;
  for (let i = 0; i < n; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (u16(buf, entry, t) === tag) return t.start + u32(buf, entry + 8, t);
  }
  return null;
}

/**
 * When the photo was taken: EXIF DateTimeOriginal (with OffsetTimeOriginal when the camera wrote one,
 * else read as UTC), falling back to IFD0 DateTime. Null when absent or malformed.
 */
export function exifTakenAt(buf: Buffer): Date | null {
  for (const t of tiffBlocks(buf)) {
    const ifd0 = t.start + u32(buf, t.start + 4, t);
    const exifIfd = pointer(buf, t, ifd0, EXIF_POINTER);
    const original = exifIfd === null ? null : asciiTag(buf, t, exifIfd, DATE_TIME_ORIGINAL);
    const value = original ?? asciiTag(buf, t, ifd0, DATE_TIME);
    const m = value ? /^(\d{4}):(\d\d):(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(value) : null;
    if (!m) continue;
    const offset = (exifIfd !== null && original ? asciiTag(buf, t, exifIfd, OFFSET_TIME_ORIGINAL) : null) ?? '';
    const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${/^[+-]\d\d:\d\d$/.test(offset) ? offset : 'Z'}`);
    if (!Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1826) return date;
  }
  return null;
}
