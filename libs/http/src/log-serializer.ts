// The request serializer of every service's log (createServer): it writes the URL with credentials cut
// out, the way supabase/storage strips token query parameters before logging. Invitation tokens travel
// in paths, the tools ownership id and unsubscribe tokens in query strings; none may reach a log line.
// Tools share codes are public by design (they are the share link), so they stay readable. Email addresses
// never reach a log line whole (spec 000 Authentication 10: access logs without personal data): every
// line's strings are masked to the mailbox's first letter and the domain (r***@example.test).
import type { FastifyRequest } from 'fastify';
import { ipWithoutLastOctet } from './client-ip';

export const REDACTED = '[redacted]';

/** Query parameter names (lower-cased, without - _ .) that carry a credential. */
const SECRET_PARAMS = new Set([
  'token',
  'sessionid',
  'session',
  'code',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'ticket',
  'signature',
  'sig',
  'secret',
  'password',
  'apikey',
  'key',
  'otp',
  // The OAuth state of a social sign-in callback (with its code, the one thing that completes the sign-in).
  'state',
  // A story share link's secret (/api/stories/{storyId}/share/{shareId}) and the OpenID nonce.
  'shareid',
  'nonce',
  'jwt',
  'auth',
  'authorization',
  'xamzsignature',
  'xamzcredential',
  'xamzsecuritytoken',
]);

const normalize = (name: string) => name.replace(/\[.*$/, '').replace(/[-_.]/g, '').toLowerCase();

/** True for a query or path parameter name that holds a credential (token, sessionId, *_token, *secret, ...). */
export function isSecretParam(name: string): boolean {
  const n = normalize(name);
  return SECRET_PARAMS.has(n) || n.endsWith('token') || n.endsWith('secret') || n.endsWith('signature') || n.endsWith('password');
}

/**
 * Path segments that are credentials, by the segments before them (compared decoded, since the router
 * decodes too). `except` lists fixed route words at that position that are not tokens.
 */
const SECRET_SEGMENTS: { prefix: string[]; except?: string[] }[] = [
  { prefix: ['api', 'family', 'invitations'], except: ['accept', 'reject'] },
  { prefix: ['api', 'family', 'welcome'] },
];

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function redactPath(path: string, routePattern?: string): string {
  const segments = path.split('/');
  const decoded = segments.map(safeDecode);
  for (const rule of SECRET_SEGMENTS) {
    const at = rule.prefix.length + 1; // segments[0] is the empty string before the leading slash
    const target = decoded[at];
    if (target === undefined || target === '') continue;
    if (!rule.prefix.every((word, i) => decoded[i + 1] === word)) continue;
    if (rule.except?.includes(target)) continue;
    segments[at] = REDACTED;
  }
  // Any other route parameter named like a credential (e.g. /:token), when the route is known.
  if (routePattern) {
    const pattern = routePattern.split('/');
    if (pattern.length === segments.length) {
      pattern.forEach((p, i) => {
        if (p.startsWith(':') && isSecretParam(p.slice(1).replace(/\(.*$/, ''))) segments[i] = REDACTED;
      });
    }
  }
  return segments.join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return isSecretParam(safeDecode(name.replace(/\+/g, ' '))) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The URL (path and query) with credential path segments and query values replaced by [redacted]. */
export function redactUrl(url: string, routePattern?: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? undefined : url.slice(q + 1);
  const redactedPath = redactPath(path, routePattern);
  return query === undefined ? redactedPath : `${redactedPath}?${redactQuery(query)}`;
}

// A mailbox (letters, digits, ._+- or a percent-escape) at a dotted domain, with @ written plainly or as %40.
const EMAIL = /((?:[A-Za-z0-9._+-]|%[0-9A-Fa-f]{2})+)(@|%40)((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})/g;

/** Every email address in `text` masked to its first letter and its domain: rose@example.test -> r***@example.test. */
export function maskEmails(text: string): string {
  if (!text.includes('@') && !text.includes('%40')) return text;
  return text.replace(EMAIL, (_m, local: string, at: string, domain: string) => `${/^[A-Za-z0-9]/.test(local) ? local[0] : ''}***${at}${domain}`);
}

/** One email address as a log field may hold it (see maskEmails). */
export const maskEmail = (address: string): string => maskEmails(address);

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/**
 * A log record's own fields with email addresses masked: strings, and plain objects and arrays a few levels
 * down. Anything else (a request, a reply, an Error) is left to its serializer, which masks its own.
 */
export function scrubLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskEmails(value);
  if (depth >= 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrubLogValue(v, depth + 1));
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubLogValue(v, depth + 1);
  return out;
}

/** pino serializer for `req`: Fastify's default fields, with the URL redacted and the address shortened. */
export function serializeRequest(request: FastifyRequest) {
  let routePattern: string | undefined;
  try {
    routePattern = request.routeOptions?.url;
  } catch {
    routePattern = undefined;
  }
  return {
    method: request.method,
    url: maskEmails(redactUrl(request.url ?? '', routePattern)),
    host: request.host,
    // Access logs hold no personal data (spec 000 Authentication 10): the address as rows keep it.
    remoteAddress: ipWithoutLastOctet(request.ip) ?? undefined,
    remotePort: request.socket?.remotePort,
  };
}
