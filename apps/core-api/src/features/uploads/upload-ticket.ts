// Direct-upload tickets (CONTRACTS §6): an HMAC-SHA256-signed statement of exactly one upload: which key,
// how many bytes, what type, for whom, until when. Register and the local PUT route trust nothing else the
// client sends about the object.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@story/http';

export interface UploadTicket {
  /** Object key (server-generated). */
  key: string;
  /** Exact byte size the object must have. */
  size: number;
  contentType: string;
  userId: string;
  /** Expiry, epoch seconds. */
  exp: number;
  campaignId?: string;
}

const b64 = (buf: Buffer) => buf.toString('base64url');

export function createTicketSigner(secret: string) {
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest();

  return {
    sign(ticket: UploadTicket): string {
      const payload = b64(Buffer.from(JSON.stringify(ticket)));
      return `${payload}.${b64(mac(payload))}`;
    },

    /** The ticket's statement, or 403 when it was altered, is malformed or has expired. */
    verify(token: string, now = Date.now()): UploadTicket {
      const refuse = (why: string) => new AppError('forbidden', 'The upload ticket is not valid', { details: why, code: 'invalid_ticket' });
      const [payload, signature, extra] = String(token).split('.');
      if (!payload || !signature || extra !== undefined) throw refuse('malformed ticket');
      const expected = mac(payload);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('the ticket signature does not match');
      let ticket: UploadTicket;
      try {
        ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as UploadTicket;
      } catch {
        throw refuse('malformed ticket');
      }
      if (typeof ticket.exp !== 'number' || ticket.exp * 1000 <= now) throw refuse('the ticket has expired');
      return ticket;
    },
  };
}

export type TicketSigner = ReturnType<typeof createTicketSigner>;
