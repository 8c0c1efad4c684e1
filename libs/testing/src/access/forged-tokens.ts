// Forged access tokens for the token attacks of the access matrix (CONTRACTS §2: HS256 JWTs with sub,
// email, role, sid, iat, exp). Built by hand with node:crypto, not with the service's own signer, so a
// flaw in that signer cannot make the forgeries agree with it.
import { createHmac } from 'node:crypto';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (data: string, secret: string) => createHmac('sha256', secret).update(data).digest('base64url');

export function decodeToken(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h!, 'base64url').toString('utf8')), payload: JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) };
}

/** An HS256 token over `payload`, signed with `secret`. */
export function signToken(payload: Record<string, unknown>, secret: string): string {
  const data = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${data}.${sign(data, secret)}`;
}

export interface ForgedTokens {
  /** The real secret, the real session, but exp an hour ago. */
  expired: string;
  /** The valid token's payload changed (role flipped between user and admin, one claim added) under its original signature. */
  tampered: string;
  /** The valid token's payload with alg none and no signature. */
  algNone: string;
  /** The valid token's payload, correctly signed with another secret. */
  otherSecret: string;
}

/** Forgeries derived from a valid token of a live session: each differs from a valid token in one way only. */
export function forgeTokens(valid: string, secret: string): ForgedTokens {
  const { payload } = decodeToken(valid);
  const now = Math.floor(Date.now() / 1000);
  const [h, , s] = valid.split('.');
  return {
    expired: signToken({ ...payload, iat: now - 7200, exp: now - 3600 }, secret),
    tampered: `${h}.${b64({ ...payload, role: payload['role'] === 'admin' ? 'user' : 'admin', tampered: true })}.${s}`,
    algNone: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`,
    otherSecret: signToken(payload, `${secret}-but-not-the-same`),
  };
}
