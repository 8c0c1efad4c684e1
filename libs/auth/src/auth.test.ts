import Fastify from 'fastify';
import { SignJWT } from 'jose';
import { AppError } from '@story/http';
import { createTokenSigner, isAcceptablePassword, hashPassword, verifyPassword, registerAuthDecorators, requireAuth, requireRole, roleForAccount, type SessionLookup } from './index';

const SECRET = 'unit-test-secret-that-is-long-enough-000000';

describe('tokens', () => {
  const signer = createTokenSigner(SECRET);

  it('signs HS256 tokens with the contract claims and verifies them', async () => {
    const { token, expiresAt, expiresIn } = await signer.sign({ userId: 'u1', email: 'a@x.test', role: 'user', sessionId: 's1' });
    expect(expiresIn).toBe(86400);
    const claims = await signer.verify(token);
    expect(claims).toMatchObject({ sub: 'u1', email: 'a@x.test', role: 'user', sid: 's1', exp: expiresAt });
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'HS256' });
  });

  it('refuses other algorithms, other secrets, missing claims and expiry', async () => {
    const key = new TextEncoder().encode(SECRET);
    const hs512 = await new SignJWT({ email: 'a', role: 'user', sid: 's' }).setProtectedHeader({ alg: 'HS512' }).setSubject('u').setIssuedAt().setExpirationTime('1h').sign(key);
    const noSid = await new SignJWT({ email: 'a', role: 'user' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setIssuedAt().setExpirationTime('1h').sign(key);
    const expired = await createTokenSigner(SECRET, -10).sign({ userId: 'u', email: 'a', role: 'user', sessionId: 's' });
    const other = await createTokenSigner('another-secret-that-is-long-enough-00000').sign({ userId: 'u', email: 'a', role: 'user', sessionId: 's' });
    for (const token of [hs512, noSid, expired.token, other.token, 'a.b.c', '']) expect(await signer.verify(token)).toBeNull();
  });
});

describe('verified-token cache', () => {
  it('answers repeated checks from the cache but still refuses a token once it has expired', async () => {
    // 3 s, not 1: exp is whole seconds from a floored iat, so a 1 s token can expire within milliseconds.
    const shortLived = createTokenSigner(SECRET, 3);
    const { token } = await shortLived.sign({ userId: 'u', email: 'a', role: 'user', sessionId: 's' });
    expect(await shortLived.verify(token)).not.toBeNull();
    expect(await shortLived.verify(token)).not.toBeNull();
    await new Promise((r) => setTimeout(r, 4100));
    expect(await shortLived.verify(token)).toBeNull();
  });

  it('does not let a tampered token share a cached answer', async () => {
    const signer = createTokenSigner(SECRET);
    const { token } = await signer.sign({ userId: 'u', email: 'a', role: 'user', sessionId: 's' });
    expect(await signer.verify(token)).not.toBeNull();
    expect(await signer.verify(`${token.slice(0, -2)}xx`)).toBeNull();
  });
});

describe('passwords', () => {
  it.each([
    ['abcdefg1', true],
    ['ábcdéfg9', true],
    ['abcdefgh', false],
    ['12345678', false],
    ['abc1', false],
  ])('%s acceptable: %s', (pw, ok) => expect(isAcceptablePassword(pw)).toBe(ok));

  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('s3cret-password');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 's3cret-password')).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });
});

describe('hooks', () => {
  const signer = createTokenSigner(SECRET);
  const sessions: SessionLookup = { findActive: async (sid) => (sid === 'live' ? { userId: 'u1', email: 'a@x.test', role: 'user' } : null) };

  async function app() {
    const a = Fastify();
    registerAuthDecorators(a);
    a.setErrorHandler((err, _req, reply) => reply.status(err instanceof AppError ? err.status : 500).send({ message: (err as Error).message }));
    a.addHook('onRequest', requireAuth({ tokens: signer, sessions }));
    a.get('/me', async (req) => req.auth);
    a.get('/admin', { preHandler: requireRole(['admin']) }, async () => ({ ok: true }));
    return a;
  }

  it('gives routes the caller, refuses revoked sessions, and enforces roles with 403', async () => {
    const a = await app();
    const live = (await signer.sign({ userId: 'u1', email: 'a@x.test', role: 'admin', sessionId: 'live' })).token;
    const revoked = (await signer.sign({ userId: 'u1', email: 'a@x.test', role: 'user', sessionId: 'gone' })).token;
    const me = await a.inject({ url: '/me', headers: { authorization: `Bearer ${live}` } });
    // The role comes from the session lookup (the account row), not from the token's claim.
    expect(me.json()).toEqual({ userId: 'u1', email: 'a@x.test', role: 'user', sessionId: 'live' });
    expect((await a.inject({ url: '/me', headers: { authorization: `Bearer ${revoked}` } })).statusCode).toBe(401);
    expect((await a.inject({ url: '/me' })).statusCode).toBe(401);
    const admin = await a.inject({ url: '/admin', headers: { authorization: `Bearer ${live}` } });
    expect(admin.statusCode).toBe(403);
    expect(admin.json().message).toBe('Admin access required');
  });
});

describe('roleForAccount', () => {
  const lists = { adminEmails: ['boss@x.test'], supportEmails: ['help@x.test', 'boss@x.test'] };

  it('gives admin or support only to a listed and verified email', () => {
    expect(roleForAccount({ email: 'boss@x.test', emailVerified: false }, lists)).toBe('user');
    expect(roleForAccount({ email: 'Boss@X.test', emailVerified: true }, lists)).toBe('admin');
    expect(roleForAccount({ email: 'help@x.test', emailVerified: false }, lists)).toBe('user');
    expect(roleForAccount({ email: 'help@x.test', emailVerified: true }, lists)).toBe('support');
    expect(roleForAccount({ email: 'other@x.test', emailVerified: true }, lists)).toBe('user');
    expect(roleForAccount({ email: 'boss@x.test', emailVerified: true }, { adminEmails: [], supportEmails: [] })).toBe('user');
  });
});

describe('roles granted through the admin API', () => {
  const lists = { adminEmails: ['boss@x.test'], supportEmails: [] };
  it('holds a granted role only while the email is verified, and lets the lists win', () => {
    expect(roleForAccount({ email: 'a@x.test', emailVerified: true, grantedRole: 'support' }, lists)).toBe('support');
    expect(roleForAccount({ email: 'a@x.test', emailVerified: true, grantedRole: 'admin' }, lists)).toBe('admin');
    expect(roleForAccount({ email: 'a@x.test', emailVerified: false, grantedRole: 'admin' }, lists)).toBe('user');
    expect(roleForAccount({ email: 'boss@x.test', emailVerified: true, grantedRole: 'support' }, lists)).toBe('admin');
    expect(roleForAccount({ email: 'a@x.test', emailVerified: true, grantedRole: 'owner' }, lists)).toBe('user');
  });
});

describe('impersonation tokens (act claim, RFC 8693)', () => {
  const signer = createTokenSigner(SECRET);
  const sessions: SessionLookup = { findActive: async (sid) => (sid === 'live' ? { userId: 'u1', email: 'a@x.test', role: 'user' } : null) };

  it('carries act.sub and a shorter lifetime, and exposes the actor as auth.actorId', async () => {
    const before = Math.floor(Date.now() / 1000);
    const signed = await signer.sign({ userId: 'u1', email: 'a@x.test', role: 'user', sessionId: 'live', actorId: 'admin-9', ttlSeconds: 900 });
    expect(signed.expiresIn).toBe(900);
    expect(signed.expiresAt - before).toBeLessThanOrEqual(901);
    expect(await signer.verify(signed.token)).toMatchObject({ sub: 'u1', act: { sub: 'admin-9' } });
    const plain = await signer.sign({ userId: 'u1', email: 'a@x.test', role: 'user', sessionId: 'live' });
    expect(await signer.verify(plain.token)).not.toHaveProperty('act');

    const a = Fastify();
    registerAuthDecorators(a);
    a.addHook('onRequest', requireAuth({ tokens: signer, sessions }));
    a.get('/me', async (req) => req.auth);
    expect((await a.inject({ url: '/me', headers: { authorization: `Bearer ${signed.token}` } })).json()).toMatchObject({ userId: 'u1', actorId: 'admin-9' });
    expect((await a.inject({ url: '/me', headers: { authorization: `Bearer ${plain.token}` } })).json()).not.toHaveProperty('actorId');
  });

  it('refuses a token whose act claim is malformed', async () => {
    const key = new TextEncoder().encode(SECRET);
    for (const act of ['admin-9', { id: 'x' }, null]) {
      const token = await new SignJWT({ email: 'a', role: 'user', sid: 's', act }).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setIssuedAt().setExpirationTime('1h').sign(key);
      expect(await signer.verify(token)).toBeNull();
    }
  });
});
