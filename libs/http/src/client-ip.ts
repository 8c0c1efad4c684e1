// Client addresses as they may be kept (spec 000 Authentication 10: "stored IP addresses have the last octet
// removed"), in rows and in log lines alike. One rule for the three services:
// - IPv4 (and IPv4-mapped IPv6): the last octet zeroed, a.b.c.0;
// - IPv6: the last 80 bits removed, keeping the /48 site prefix (a.b.c::). Removing only the last group
//   would keep a /112, which still names one household or device; /48 is the usual IPv6 equivalent.
// Anything else (empty, a zone-only or malformed string) is not kept at all.
import { isIPv4, isIPv6 } from 'node:net';

/** The three leading 16-bit groups of an IPv6 address, in full (expands ::). */
function leadingGroups(ip: string): string[] | null {
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (::ffff:1.2.3.4 handled before; 64:ff9b::1.2.3.4 here) counts as two groups.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const missing = 8 - width(left) - width(right);
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  return all.slice(0, 3).map((g) => (g.includes('.') ? '0' : g.toLowerCase().replace(/^0+(?=.)/, '')));
}

/** The client address with its last octet (IPv4) or last 80 bits (IPv6) removed; null when it is not an address. */
export function ipWithoutLastOctet(ip: string | undefined | null): string | null {
  if (!ip) return null;
  const bare = ip.trim().replace(/%.*$/, ''); // an IPv6 zone id names a local interface, nothing to keep
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const v4 = mapped ? mapped[1]! : bare;
  if (isIPv4(v4)) return v4.replace(/\.\d+$/, '.0');
  if (!isIPv6(bare)) return null;
  const groups = leadingGroups(bare);
  return groups ? `${groups.join(':')}::` : null;
}
