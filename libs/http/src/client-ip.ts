// Client addresses as they may be kept (spec 000 Authentication 10: "stored IP addresses have the last octet
// removed"), in rows and in log lines alike. One rule for the three services:
// - IPv4 (and IPv4-mapped IPv6): the last octet zeroed, a.b.c.0;
// - IPv6: the last 80 bits removed, keeping the /48 site prefix (a:b:c::). Removing only the last group
//   would keep a /112, which still names one household or device; /48 is the usual IPv6 equivalent.
// Anything else (empty, malformed, a non-standard IPv4 form) is not kept at all.
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The client address with its last octet (IPv4) or last 80 bits (IPv6) removed; null when it is not an address. */
export function ipWithoutLastOctet(ip: string | undefined | null): string | null {
  if (!ip) return null;
  const bare = ip.trim().replace(/%.*$/, ''); // an IPv6 zone id names a local interface, nothing to keep
  // node:net decides what an address is (ipaddr.js alone also accepts forms such as "127.1" or hex octets).
  if (!isIPv4(bare) && !isIPv6(bare)) return null;
  let addr = ipaddr.parse(bare);
  if (addr instanceof ipaddr.IPv6 && addr.isIPv4MappedAddress()) addr = addr.toIPv4Address();
  if (addr instanceof ipaddr.IPv4) return `${addr.octets.slice(0, 3).join('.')}.0`;
  return `${addr.parts.slice(0, 3).map((part) => part.toString(16)).join(':')}::`;
}
