// Fetching a URL a user named, without letting it reach inside the network (SSRF). The rules:
// - http and https only, no credentials in the URL;
// - the host name is resolved ONCE, every address it resolves to must be public unicast (ipaddr.js
//   range() === 'unicast'; an IPv6 address that carries an IPv4 one is judged by it, see isPublicAddress),
//   and the connection is made to that checked address through a pinned `lookup`, so a second DNS answer
//   (rebinding) is never used; the socket's remote address is judged again once connected, so nothing but
//   a checked address is ever talked to;
// - redirects are followed by hand, at most `maxRedirects`, each target checked like the first URL;
// - the whole exchange has a deadline and the body (decompressed) a byte cap.
// `allowPrivate` exists for tests that must fetch from a local server: it names exact address ranges AND
// ports, and nothing sets it by default.
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';

export type UnsafeReason = 'invalid_url' | 'scheme' | 'credentials' | 'private_address' | 'unresolvable';

/** The URL (or a redirect target) may not be fetched: nothing was sent to it. */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
  constructor(
    readonly reason: UnsafeReason,
    message: string,
  ) {
    super(message);
  }
}

export type FetchFailure = 'timeout' | 'too_large' | 'too_many_redirects' | 'http_status' | 'network';

/** The fetch was allowed but did not bring back a usable body. */
export class SafeFetchError extends Error {
  override name = 'SafeFetchError';
  constructor(
    readonly reason: FetchFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A test-only exception: this address range on this port may be fetched although it is not public. */
export interface AllowedPrivate {
  cidr: string;
  port: number;
}

export interface SafeFetchOptions {
  /** Body cap in bytes, after decompression (default 2 MB). */
  maxBytes?: number;
  /** Deadline for the whole exchange, redirects included (default 10 s). */
  timeoutMs?: number;
  /** Redirects followed at most (default 3). */
  maxRedirects?: number;
  /** Name resolution (default: the system resolver, every address). Tests inject one. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  allowPrivate?: readonly AllowedPrivate[];
  accept?: string;
  userAgent?: string;
  signal?: AbortSignal;
  /** Called with each address right before connecting to it (tests and logs). */
  onConnect?: (target: { url: string; address: string; port: number }) => void;
}

export interface SafeFetchResult {
  /** The URL the body came from (after redirects). */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

const DEFAULTS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

const systemResolve = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

const v4From = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
const zero = (parts: number[], from: number, to: number) => parts.slice(from, to).every((p) => p === 0);

/**
 * The IPv4 address an IPv6 one stands for, where it is a way of reaching that IPv4 host: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, RFC 6145) and the NAT64 well-known prefix
 * (64:ff9b::/96, RFC 6052). Undefined for any other address.
 */
function carriedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = addr.parts;
  const [, , , , p4, p5, p6 = 0, p7 = 0] = p;
  if (zero(p, 0, 5) && p5 === 0xffff) return v4From(p6, p7);
  if (zero(p, 0, 4) && p4 === 0xffff && p5 === 0) return v4From(p6, p7);
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(p, 2, 6)) return v4From(p6, p7);
  return undefined;
}

/**
 * Is this address public unicast? Loopback, private, link-local (cloud metadata), CGNAT, multicast,
 * unspecified, reserved are not. IPv6 that carries IPv4: mapped, translated and NAT64 addresses are judged
 * by the IPv4 they reach; ::/96 (unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d, which
 * the URL parser writes as ::7f00:1 and ipaddr.js would call unicast) is never public; 6to4 (2002::/16),
 * Teredo (2001::/32) and local-use NAT64 (64:ff9b:1::/48) tunnel to an IPv4 host and are refused whole.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast';
  const v6 = addr as ipaddr.IPv6;
  const carried = carriedIPv4(v6);
  if (carried) return carried.range() === 'unicast';
  if (zero(v6.parts, 0, 6)) return false;
  return v6.range() === 'unicast';
}

function allowedPrivately(ip: string, port: number, allow: readonly AllowedPrivate[]): boolean {
  if (!allow.length || !ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6') addr = carriedIPv4(addr as ipaddr.IPv6) ?? addr;
  return allow.some((entry) => {
    if (entry.port !== port) return false;
    const [range, bits] = ipaddr.parseCIDR(entry.cidr);
    return range.kind() === addr.kind() && addr.match(range, bits);
  });
}

const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Check a URL before anything is sent: scheme, credentials, and the addresses its host resolves to.
 * Returns the one address to connect to.
 */
export async function checkUrl(raw: string | URL, options: Pick<SafeFetchOptions, 'resolve' | 'allowPrivate'> = {}): Promise<{ url: URL; target: ResolvedAddress }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('invalid_url', 'This is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrlError('scheme', 'Only http and https URLs can be imported');
  if (url.username || url.password) throw new UnsafeUrlError('credentials', 'URLs with a user name or password cannot be imported');
  const host = bareHost(url);
  const port = portOf(url);
  const allow = options.allowPrivate ?? [];
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw new UnsafeUrlError('unresolvable', `The host ${host} could not be found`);
    }
    if (!addresses.length) throw new UnsafeUrlError('unresolvable', `The host ${host} could not be found`);
  }
  // Every address must pass, not just one: a name that also points inside the network is refused whole.
  for (const a of addresses) {
    if (!isIP(a.address)) throw new UnsafeUrlError('unresolvable', `The host ${host} could not be found`);
    if (!isPublicAddress(a.address) && !allowedPrivately(a.address, port, allow)) {
      throw new UnsafeUrlError('private_address', 'This address is inside a private, local or reserved network and cannot be fetched');
    }
  }
  return { url, target: addresses[0]! };
}

/** A lookup that answers with the already-checked address and never asks DNS again. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function request(url: URL, target: ResolvedAddress, options: SafeFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = bareHost(url);
  const transport = url.protocol === 'https:' ? https : http;
  options.onConnect?.({ url: url.href, address: target.address, port: portOf(url) });
  return new Promise((resolve, reject) => {
    const req = transport.request({
      protocol: url.protocol,
      hostname: host,
      port: portOf(url),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(target),
      // TLS checks the certificate against the name the user gave, not the address.
      ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
      headers: {
        host: url.host,
        accept: options.accept ?? 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': options.userAgent ?? 'FamilyStoriesImporter/1.0',
      },
      signal,
    });
    // The address actually connected to is judged again: only a checked address is ever sent a request.
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        const remote = socket.remoteAddress ?? '';
        if (!isPublicAddress(remote) && !allowedPrivately(remote, portOf(url), options.allowPrivate ?? [])) {
          req.destroy(new UnsafeUrlError('private_address', 'This address is inside a private, local or reserved network and cannot be fetched'));
        }
      });
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return res.pipe(zlib.createInflate());
  if (encoding === 'br') return res.pipe(zlib.createBrotliDecompress());
  return res;
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes && !res.headers['content-encoding']) {
    res.destroy();
    throw new SafeFetchError('too_large', `The page is larger than ${Math.round(maxBytes / 1024)} KB`);
  }
  const body = decoded(res);
  const chunks: Buffer[] = [];
  let seen = 0;
  try {
    for await (const chunk of body) {
      seen += (chunk as Buffer).length;
      if (seen > maxBytes) throw new SafeFetchError('too_large', `The page is larger than ${Math.round(maxBytes / 1024)} KB`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (seen > maxBytes) {
      body.destroy();
      res.destroy();
    }
  }
  return Buffer.concat(chunks);
}

/** GET a user-named URL safely (see the file comment); redirects are re-checked hop by hop. */
export async function safeFetch(raw: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const deadline = AbortSignal.timeout(options.timeoutMs ?? DEFAULTS.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let next = raw;
  try {
    for (let hop = 0; ; hop += 1) {
      const { url, target } = await checkUrl(next, options);
      const res = await request(url, target, options, signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= maxRedirects) throw new SafeFetchError('too_many_redirects', `The page redirected more than ${maxRedirects} times`);
        next = new URL(res.headers.location, url).href;
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new SafeFetchError('http_status', `The page answered with HTTP status ${status}`, status);
      }
      const body = await readCapped(res, maxBytes);
      return { url: url.href, status, contentType: String(res.headers['content-type'] ?? ''), body };
    }
  } catch (err) {
    if (err instanceof UnsafeUrlError || err instanceof SafeFetchError) throw err;
    if (deadline.aborted) throw new SafeFetchError('timeout', 'The page took too long to answer');
    throw new SafeFetchError('network', 'The page could not be reached');
  }
}
