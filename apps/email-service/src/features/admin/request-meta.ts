// What the audit log keeps of a request: the client address with its last octet (IPv6: last group)
// removed (spec 000 Authentication 10; the rule of ipPrefix in core-api's auth service) and the request id.
import type { FastifyRequest } from 'fastify';

export interface AuditMeta {
  ipPrefix: string | null;
  requestId: string;
  userAgent: string | null;
}

export function ipPrefix(ip: string | undefined): string | null {
  if (!ip) return null;
  const v4 = ip.replace(/^::ffff:/, '');
  if (/^\d+\.\d+\.\d+\.\d+$/.test(v4)) return v4.replace(/\.\d+$/, '.0');
  return ip.includes(':') ? ip.replace(/:[0-9a-f]*$/i, ':') : null;
}

export function auditMeta(request: FastifyRequest): AuditMeta {
  const ua = request.headers['user-agent'];
  return { ipPrefix: ipPrefix(request.ip), requestId: request.id, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}
