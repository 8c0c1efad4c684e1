import Fastify from 'fastify';
import { createTestDatabase, type TestDatabase } from '@story/db/testing';
import { fuzzService } from './run-fuzz';

// The fuzz property itself must be able to fail: a small app with one flaw per route.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop(), 60_000);

const op = (responses: Record<string, unknown> = { 200: {}, 400: {} }) => ({ get: { operationId: Math.random().toString(36), responses } });

it('reports a 500, a stack trace, SQL text, a wrong error shape and a write behind a refusal, and passes a sound route', async () => {
  const app = Fastify();
  app.get('/api/boom', async (_req, reply) => reply.status(500).send({ error: 'Internal server error' }));
  app.get('/api/stack', async (_req, reply) => reply.status(400).send({ error: 'Error: x\n    at handler (/srv/app.js:10:5)' }));
  app.get('/api/sql', async (_req, reply) => reply.status(400).send({ error: 'duplicate key value violates unique constraint "accounts_email_key"' }));
  app.get('/api/shape', async (_req, reply) => reply.status(404).send({ message: 'missing' }));
  app.get('/api/write', async (_req, reply) => {
    await db.sql`insert into accounts (email) values (${`w${Math.random()}@example.test`})`;
    return reply.status(400).send({ error: 'refused after writing' });
  });
  app.get('/api/sound', async (_req, reply) => reply.status(400).send({ error: 'Invalid name: is required' }));
  const doc = { paths: { '/api/boom': op(), '/api/stack': op(), '/api/sql': op(), '/api/shape': op(), '/api/write': op(), '/api/sound': op() } };

  const result = await fuzzService({ app, sql: db.sql, doc, shape: 'core', actors: { anonymous: {} }, ids: [], runsPerRoute: 2, seed: 1 });
  await app.close();
  expect(result.tried).toBe(12);
  const problems = new Map(result.failures.map((f) => [f.operation, f.problem]));
  expect(problems.get('GET /api/boom')).toBe('answered 500');
  expect(problems.get('GET /api/stack')).toBe('the answer carries a stack trace');
  expect(problems.get('GET /api/sql')).toBe('the answer carries SQL text');
  expect(problems.get('GET /api/shape')).toBe('core error body lacks error: string');
  expect(problems.get('GET /api/write')).toBe('refused with 400 but wrote to accounts');
  expect(problems.has('GET /api/sound')).toBe(false);
});
