// Shared checks of the security suites (apps/*/src/security): the response headers of
// spec 000 Authentication 8 on any answer, CORS answers (no wildcard with credentials), and one plain
// request per route of a service's OpenAPI document so a check can run on every route.
import type postgres from 'postgres';
import { fuzzOperations } from './fuzz/openapi-requests';

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
}

const header = (res: Answer, name: string): string | undefined => {
  const v = res.headers[name.toLowerCase()];
  return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v);
};

export interface HeaderExpectations {
  /** The answer may be framed (an embeddable page): X-Frame-Options and CSP frame-ancestors may be relaxed. */
  framable?: boolean;
}

/**
 * What is missing or wrong in the security headers of one answer (empty when all hold): X-Frame-Options DENY,
 * X-Content-Type-Options nosniff, Referrer-Policy strict-origin-when-cross-origin, Permissions-Policy
 * disabling camera, microphone and geolocation, a Content-Security-Policy that names no other origin for
 * default-src, and HSTS of at least a year.
 */
export function securityHeaderProblems(res: Answer, expect: HeaderExpectations = {}): string[] {
  const problems: string[] = [];
  const check = (name: string, ok: (v: string | undefined) => boolean) => {
    const v = header(res, name);
    if (!ok(v)) problems.push(`${name}: ${v ?? '(missing)'}`);
  };
  if (expect.framable) check('x-frame-options', (v) => v === undefined || v === 'SAMEORIGIN' || v === 'DENY');
  else check('x-frame-options', (v) => v === 'DENY');
  check('x-content-type-options', (v) => v === 'nosniff');
  check('referrer-policy', (v) => v === 'strict-origin-when-cross-origin');
  check('permissions-policy', (v) => v !== undefined && ['camera=()', 'microphone=()', 'geolocation=()'].every((p) => v.includes(p)));
  check('content-security-policy', (v) => {
    if (!v) return false;
    const directive = (name: string) => v.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `));
    const defaults = directive('default-src');
    if (!defaults || !/^default-src ('self'|'none')$/.test(defaults)) return false;
    const ancestors = directive('frame-ancestors');
    return expect.framable ? true : ancestors === undefined ? header(res, 'x-frame-options') === 'DENY' : /^frame-ancestors ('none'|'self')$/.test(ancestors);
  });
  check('strict-transport-security', (v) => {
    const age = /max-age=(\d+)/.exec(v ?? '');
    return !!age && Number(age[1]) >= 31_536_000;
  });
  return problems;
}

/** What is wrong in the CORS headers of one answer to a request from `origin` (empty when fine). */
export function corsProblems(res: Answer, origin: string, allowed: { origins: string[]; publicWildcard?: boolean }): string[] {
  const problems: string[] = [];
  const allowOrigin = header(res, 'access-control-allow-origin');
  const credentials = header(res, 'access-control-allow-credentials');
  if (allowOrigin === '*' && credentials !== undefined) problems.push('wildcard origin together with credentials');
  if (allowOrigin === '*' && !allowed.publicWildcard) problems.push('wildcard origin');
  if (allowOrigin !== undefined && allowOrigin !== '*' && allowOrigin !== origin) problems.push(`allows another origin than asked: ${allowOrigin}`);
  if (allowOrigin === origin && !allowed.origins.includes(origin)) problems.push(`reflects a foreign origin ${origin}`);
  if (allowOrigin === origin && credentials !== 'true') problems.push('own origin without credentials');
  if (allowOrigin === origin && !/origin/i.test(header(res, 'vary') ?? '')) problems.push('own origin answer without Vary: Origin');
  return problems;
}

export interface RouteProbe {
  method: string;
  /** The document's path with every {param} filled. */
  url: string;
  /** The OpenAPI path. */
  path: string;
  /** The route answers HTML pages. */
  html: boolean;
}

const PLACEHOLDER_UUID = '00000000-0000-4000-8000-000000000000';

/** One request per operation of the document, path parameters filled (`fill` by name, else uuid-looking names get a uuid). */
export function routeProbes(doc: { paths?: Record<string, Record<string, unknown>> }, fill: Record<string, string> = {}): RouteProbe[] {
  return fuzzOperations(doc).map((op) => ({
    method: op.method,
    path: op.path,
    html: op.html,
    url: op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      if (fill[name] !== undefined) return encodeURIComponent(fill[name]);
      const param = op.pathParams.find((p) => p.name === name);
      const schema = param?.schema as { format?: string; enum?: string[] } | undefined;
      if (schema?.enum?.[0]) return encodeURIComponent(schema.enum[0]);
      return schema?.format === 'uuid' || /id$/i.test(name) ? PLACEHOLDER_UUID : 'probe';
    }),
  }));
}

type Sql = postgres.Sql;

/** Tables where `needle` appears anywhere in a row's text form (every column, jsonb included). */
export async function tablesContaining(sql: Sql, needle: string): Promise<string[]> {
  const tables = await sql<{ t: string }[]>`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`;
  const found: string[] = [];
  for (const { t } of tables) {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const [hit] = await sql`select 1 from ${sql(t)} x where x::text like ${pattern} limit 1`;
    if (hit) found.push(t);
  }
  return found;
}

/** Every column of the shared schema that holds a client address, by name (table.column). */
export async function addressColumns(sql: Sql): Promise<string[]> {
  const rows = await sql<{ c: string }[]>`
    select table_name || '.' || column_name as c from information_schema.columns
    where table_schema = 'public' and (column_name ~ '(^|_)ip($|_)' or column_name ~ '(remote|client)_?addr')
    order by 1`;
  return rows.map((r) => r.c);
}

/**
 * The entry names of a zip exactly as its central directory holds them (raw bytes as UTF-8), without the
 * checks an unzip library applies on reading, so a test sees what a careless extractor would.
 */
export function zipEntryNames(zip: Buffer): string[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  let count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (offset === 0xffffffff || count === 0xffff) {
    const locator = eocd - 20;
    if (zip.readUInt32LE(locator) !== 0x07064b50) throw new Error('zip64 locator missing');
    const record = Number(zip.readBigUInt64LE(locator + 8));
    count = Number(zip.readBigUInt64LE(record + 32));
    offset = Number(zip.readBigUInt64LE(record + 48));
  }
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** What makes a zip entry name unsafe to extract: absolute, drive-qualified, `..`/`.` segments, backslashes, control or bidi characters. */
export function unsafeEntryName(name: string): string | null {
  if (name === '') return 'empty';
  if (name.startsWith('/') || name.startsWith('\\')) return 'absolute';
  if (/^[A-Za-z]:/.test(name)) return 'drive letter';
  if (name.includes('\\')) return 'backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'control character';
  if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(name)) return 'bidirectional override';
  if (name.split('/').some((s, i, all) => s === '..' || s === '.' || (s === '' && i < all.length - 1))) return 'dot or empty segment';
  if (name.split('/').some((s) => s.length > 255 || /[ .]$/.test(s))) return 'segment too long or ending in a dot or space';
  return null;
}

/**
 * A personal JSON answer (the request carried a credential or a session, or is a sign-in route) must carry
 * Cache-Control: no-store. Returns what is wrong with `res` (empty when nothing is).
 */
export function cacheControlProblems(res: { headers: Record<string, unknown> }): string[] {
  const type = String(res.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) return [];
  const cache = String(res.headers['cache-control'] ?? '');
  return /(^|[\s,])no-store\b/i.test(cache) ? [] : [`Cache-Control is ${cache ? JSON.stringify(cache) : 'missing'}, not no-store`];
}

