// TRUST_PROXY (CONTRACTS §1): off by default, so a client cannot choose its own address with
// X-Forwarded-For. A hop count or a list of proxy addresses/CIDRs turns it on, in the forms Fastify's
// trustProxy (proxy-addr) accepts; anything else is a config error naming the variable.
import { isIP } from 'node:net';
import { z } from 'zod';

/** What Fastify's `trustProxy` receives: false (off), a hop count, or the trusted proxy addresses. */
export type TrustProxySetting = false | number | string[];

/** proxy-addr's named ranges. */
const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Parse one TRUST_PROXY value; undefined means it is invalid. */
export function parseTrustProxy(raw: string | undefined): TrustProxySetting | undefined {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'off' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value) <= 100 ? Number(value) : undefined;
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.length > 0 && entries.every(isAddressOrCidr) ? entries : undefined;
}

export const trustProxyField = () =>
  z
    .string()
    .optional()
    .refine((v) => parseTrustProxy(v) !== undefined, {
      message: 'must be a hop count (0-100) or a comma-separated list of IP addresses or CIDRs (loopback, linklocal, uniquelocal allowed)',
    })
    .transform((v) => parseTrustProxy(v) as TrustProxySetting)
    .describe('Trust X-Forwarded-For from proxies: off (default), a hop count, or a list of proxy addresses/CIDRs');
