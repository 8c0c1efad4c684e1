// What the audit log keeps of a request: the client address with its last octet (IPv6: last 80 bits)
// removed (spec 000 Authentication 10; libs/http client-ip, the rule of every service) and the request id.
import type { FastifyRequest } from 'fastify';
import { ipWithoutLastOctet } from '@story/http';

export interface AuditMeta {
  ipPrefix: string | null;
  requestId: string;
  userAgent: string | null;
}

export const ipPrefix = (ip: string | undefined): string | null => ipWithoutLastOctet(ip);

export function auditMeta(request: FastifyRequest): AuditMeta {
  const ua = request.headers['user-agent'];
  return { ipPrefix: ipPrefix(request.ip), requestId: request.id, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}
