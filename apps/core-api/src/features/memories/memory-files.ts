// File names of downloaded memories (spec 000 Memories rule 3 and the archive layout): the storyteller's
// calendar date in their profile's zone, a title made portable by libs/archive, and the extension of the
// stored media type (the bytes are served exactly as uploaded, so the extension follows them).
import { safeSegment } from '@story/archive';

const EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'video/x-matroska': 'mkv',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
};

/** The extension for a stored media type (parameters ignored), else the storage key's own, else 'bin'. */
export function extensionOf(mimeType: string | null | undefined, storageKey?: string | null): string {
  const base = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (EXTENSIONS[base]) return EXTENSIONS[base]!;
  const fromKey = /\.([a-z0-9]{1,5})$/i.exec(storageKey ?? '')?.[1];
  return fromKey ? fromKey.toLowerCase() : 'bin';
}

/** YYYY-MM-DD of an instant in an IANA zone; an unknown zone falls back to UTC. */
export function calendarDate(at: Date | string, timeZone: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

/** `<date>-<title>` for a file: the date in the storyteller's zone, the title safe on every system. */
export function datedBase(at: Date | string, timeZone: string, title: string): string {
  return `${calendarDate(at, timeZone)}-${safeSegment(title)}`;
}

/** Content-Disposition with a plain ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187). */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\%]/g, '_') || 'download';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
