// The opaque `cursor` of GET /api/memories (beyond the spec): where the next page starts, as the (at, id)
// of the last card, bound to the storyteller and filter it was made for and signed with HMAC-SHA256, so a
// forged or edited cursor is refused with 400 before any query runs.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { badRequest } from '@story/http';
import { FILTERS } from './memories.schemas';

const payloadSchema = z.object({
  v: z.literal(1),
  s: z.uuid(),
  f: z.enum(FILTERS),
  p: z.number().int().min(1),
  t: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  i: z.uuid(),
});
export type CursorPayload = z.infer<typeof payloadSchema>;

export interface CursorCodec {
  encode(payload: Omit<CursorPayload, 'v'>): string;
  /** The payload of a cursor this service made; 400 naming `cursor` for anything else. */
  decode(cursor: string): CursorPayload;
}

export function createCursorCodec(secret: string): CursorCodec {
  // A key of its own, derived from the service secret, so a cursor MAC is never valid as anything else.
  const key = createHmac('sha256', secret).update('memories-cursor/v1').digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest().subarray(0, 18);
  const invalid = () => badRequest('cursor is not valid: use the nextCursor of a previous answer', { field: 'cursor' });
  return {
    encode(payload) {
      const body = Buffer.from(JSON.stringify({ v: 1, ...payload })).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    decode(cursor) {
      const [body, sig, extra] = cursor.split('.');
      if (!body || !sig || extra !== undefined || body.length > 400) throw invalid();
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      const parsed = payloadSchema.safeParse(json);
      if (!parsed.success) throw invalid();
      return parsed.data;
    },
  };
}
