// A deliberately small RFC 5322 / MIME reader for the email tests (mailparser is not a dependency): enough to
// unfold headers, walk multipart bodies and decode quoted-printable and base64 parts.

export interface MimePart {
  headers: Map<string, string[]>;
  /** First value of a header, case-insensitive name. */
  header(name: string): string | undefined;
  contentType: string;
  boundary?: string;
  /** Decoded body for leaf parts; raw body text for multiparts. */
  body: string;
  parts: MimePart[];
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export function parseMime(raw: string): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const headerText = split === -1 ? raw : raw.slice(0, split);
  const bodyText = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string[]>();
  for (const line of headerText.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const header = (name: string) => headers.get(name.toLowerCase())?.[0];
  const typeHeader = header('content-type') ?? 'text/plain';
  const contentType = typeHeader.split(';')[0].trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(typeHeader)?.[1];
  let body = bodyText;
  let parts: MimePart[] = [];
  if (contentType.startsWith('multipart/') && boundary) {
    const sections = bodyText.split(`--${boundary}`);
    // sections[0] is the preamble; the last one starts with '--' (the closing delimiter).
    parts = sections
      .slice(1)
      .filter((section) => !section.startsWith('--'))
      .map((section) => parseMime(section.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
  } else {
    const encoding = (header('content-transfer-encoding') ?? '7bit').toLowerCase();
    if (encoding === 'quoted-printable') body = decodeQuotedPrintable(bodyText);
    else if (encoding === 'base64') body = Buffer.from(bodyText.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, header, contentType, boundary, body, parts };
}

/** Every leaf part, depth first. */
export function leafParts(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leafParts);
}
