// File names inside downloaded archives (spec 000 "Archive" layout: recordings/<date>-<title>.<ext>):
// readable, portable across Windows/macOS/Linux unzip tools, and never a path that escapes the folder.

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A title made safe for one path segment: no separators, control or reserved characters, at most 80 chars. */
export function safeSegment(title: string, fallback = 'untitled'): string {
  const cleaned = title
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]+/g, ' ')
    // Bidirectional and invisible format characters: a right-to-left override makes "gnp.exe" show as
    // "exe.png" in a file manager (found by the security suite).
    .replace(/[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+/g, '')
    // Words of dots only ("..") mean "parent folder" to some tools: drop them.
    .replace(/(^|\s)\.+(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  const cut = Array.from(cleaned).slice(0, 80).join('').trim();
  if (!cut || RESERVED.test(cut)) return fallback;
  return cut;
}

/** Make names unique within one folder by adding " (2)", " (3)" before the extension. */
export function createNameDeduper(): (name: string) => string {
  const seen = new Map<string, number>();
  return (name) => {
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 1) return name;
    const dot = name.lastIndexOf('.');
    const candidate = dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
    seen.set(candidate.toLowerCase(), 1);
    return candidate;
  };
}
