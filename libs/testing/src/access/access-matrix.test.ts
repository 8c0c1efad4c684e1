import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { ACCESS_ACTORS, expectFor, lookalike, routeUrl, runAccessMatrix, type AccessActor } from './access-matrix';
import { idRoutes, matrixCoverage } from './id-routes';
import { decodeToken, forgeTokens, signToken } from './forged-tokens';

// The harness must be able to fail: a small app whose routes each have one flaw.
const actors = Object.fromEntries(ACCESS_ACTORS.map((a) => [a, a === 'anonymous' ? {} : { 'x-actor': a }])) as Record<AccessActor, Record<string, string>>;
const existing = randomUUID();

async function app() {
  const f = Fastify();
  const who = (h: Record<string, unknown>) => h['x-actor'] as string | undefined;
  // Sound: 401 anonymous, 200 owner, 404 (same body as a missing id) for everyone else.
  f.get('/api/sound/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!who(req.headers)) return reply.status(401).send({ error: 'Unauthorized' });
    if (id === existing && who(req.headers) === 'owner') return { id };
    return reply.status(404).send({ error: 'Not found', details: `no thing ${id}` });
  });
  // Leaks: an existing id answers 403 to a stranger, a missing one 404.
  f.get('/api/leaky/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!who(req.headers)) return reply.status(401).send({ error: 'Unauthorized' });
    if (id !== existing) return reply.status(404).send({ error: 'Not found' });
    return who(req.headers) === 'owner' ? { id } : reply.status(404).send({ error: 'Not yours' });
  });
  // Two ids: the member is looked up before the caller's membership, so a real group with a made-up
  // member answers differently from a real pair (leaks that the group exists).
  f.get('/api/g/:g/m/:m', async (req, reply) => {
    const { g, m } = req.params as { g: string; m: string };
    if (!who(req.headers)) return reply.status(401).send({ error: 'Unauthorized' });
    if (g === existing && m !== existing) return reply.status(404).send({ error: 'No such member' });
    if (g === existing && who(req.headers) === 'owner') return { g, m };
    return reply.status(404).send({ error: 'Not found' });
  });
  // Wrong shape and wrong status for the viewer.
  f.get('/api/shape/:id', async (req, reply) => (who(req.headers) === 'viewer' ? reply.status(403).send({ message: 'no' }) : { ok: true }));
  await f.ready();
  return f;
}

it('reports a wrong status, a wrong error shape and a 404 that differs from a missing id, and passes a sound route', async () => {
  const f = await app();
  const onlyOwner = expectFor({ owner: 200, anonymous: 401 }, 404);
  const r = await runAccessMatrix({
    app: f,
    actors,
    shape: 'core',
    cases: [
      { route: 'GET /api/sound/{id}', spec: 'test', params: () => ({ id: existing }), expect: onlyOwner },
      { route: 'GET /api/leaky/{id}', spec: 'test', params: () => ({ id: existing }), expect: onlyOwner },
      { route: 'GET /api/shape/{id}', spec: 'test', params: () => ({ id: existing }), expect: expectFor({ viewer: 403 }, 200) },
      { route: 'GET /api/shape/{id}', spec: 'test', note: 'viewer 200', params: () => ({ id: existing }), expect: expectFor({}, 200) },
      { route: 'GET /api/g/{g}/m/{m}', spec: 'test', params: () => ({ g: existing, m: existing }), expect: onlyOwner },
    ],
  });
  await f.close();
  const by = (route: string) => r.mismatches.filter((m) => m.route === route).map((m) => m.actor);
  expect(r.cells).toBe(50);
  expect(r.routes).toBe(4);
  expect(by('GET /api/g/{g}/m/{m}')).toEqual(ACCESS_ACTORS.filter((a) => a !== 'owner' && a !== 'anonymous'));
  expect(r.mismatches.find((m) => m.route === 'GET /api/g/{g}/m/{m}')!.problem).toMatch(/missing one \(m\) 404 \{"error":"No such member"\}/);
  expect(by('GET /api/sound/{id}')).toEqual([]);
  // Every signed-in non-owner learns the id exists on the leaky route.
  expect(by('GET /api/leaky/{id}')).toEqual(ACCESS_ACTORS.filter((a) => a !== 'owner' && a !== 'anonymous'));
  expect(r.mismatches.find((m) => m.route === 'GET /api/leaky/{id}')!.problem).toMatch(/Not yours.*missing one \(id\) 404.*Not found/);
  expect(by('GET /api/shape/{id}')).toEqual(['viewer']);
  expect(r.mismatches.find((m) => m.route === 'GET /api/shape/{id}')!.problem).toMatch(/core error body lacks error/);
  expect(by('GET /api/shape/{id} (viewer 200)')).toEqual(['viewer']);
  // sound and leaky: the eight 404 actors once each; the two-id route: all ids, then g alone, then m (the leak, which stops it).
  expect(r.comparisons).toBe(8 + 8 + 8 * 3);
});

it('derives id routes from path parameters, skips vocabularies and enums, and names uncovered and unknown routes', () => {
  const doc = {
    paths: {
      '/api/things/{id}': { get: { parameters: [{ name: 'id', in: 'path' }] }, delete: { parameters: [{ name: 'id', in: 'path' }] } },
      '/api/{tool}/browse': { get: { parameters: [{ name: 'tool', in: 'path' }] } },
      '/api/tts/{provider}': { get: { parameters: [{ name: 'provider', in: 'path', schema: { enum: ['local'] } }] } },
      '/api/{tool}/{id}': { get: { parameters: [{ name: 'tool', in: 'path' }, { name: 'id', in: 'path' }] } },
      '/api/list': { get: {} },
    },
  };
  const routes = idRoutes(doc, { tool: 'a tool name' });
  expect(routes).toEqual([
    { route: 'GET /api/things/{id}', idParams: ['id'] },
    { route: 'DELETE /api/things/{id}', idParams: ['id'] },
    { route: 'GET /api/{tool}/{id}', idParams: ['id'] },
  ]);
  expect(matrixCoverage(routes, ['GET /api/things/{id}', 'GET /api/gone/{id}'], ['GET /api/things/{id}'])).toEqual({
    uncovered: ['DELETE /api/things/{id}', 'GET /api/{tool}/{id}'],
    unknown: ['GET /api/gone/{id}'],
  });
});

it('builds URLs and look-alike ids', () => {
  expect(routeUrl('GET /api/{tool}/{id}', { tool: 'flashcards', id: 'a b' }, 'x=1')).toEqual({ method: 'GET', url: '/api/flashcards/a%20b?x=1' });
  expect(() => routeUrl('GET /api/{id}', {})).toThrow('no value for {id}');
  const code = lookalike('pl_ab12CD');
  expect(code).toMatch(/^pl_[a-z]{2}[0-9]{2}[A-Z]{2}$/);
  expect(lookalike(existing)).not.toBe(existing);
});

it('forges tokens that differ from a valid one in one way each', () => {
  const now = Math.floor(Date.now() / 1000);
  const valid = signToken({ sub: 'u', email: 'e', role: 'user', sid: 's', iat: now, exp: now + 60 }, 'secret');
  const f = forgeTokens(valid, 'secret');
  expect(decodeToken(f.expired).payload['exp']).toBeLessThan(now);
  expect(decodeToken(f.tampered).payload['role']).toBe('admin');
  expect(decodeToken(forgeTokens(signToken({ ...decodeToken(valid).payload, role: 'admin' }, 'secret'), 'secret').tampered).payload['role']).toBe('user');
  for (const forged of Object.values(f)) expect(forged).not.toBe(valid);
  expect(f.tampered.split('.')[2]).toBe(valid.split('.')[2]);
  expect(decodeToken(f.algNone).header['alg']).toBe('none');
  expect(f.algNone.endsWith('.')).toBe(true);
  expect(decodeToken(f.otherSecret).payload).toEqual(decodeToken(valid).payload);
  expect(f.otherSecret).not.toBe(valid);
});
