import { z } from 'zod';
import { createServer } from './index';

it('serializes only declared fields, nested too, and keeps loose objects whole', async () => {
  const app = createServer({ name: 'ser', logLevel: 'silent' });
  const item = z.object({ id: z.string(), count: z.number().int(), note: z.string().optional() });
  app.get('/list', { schema: { response: { 200: z.array(item) } } }, async () => [
    { id: 'a', count: 1, passwordHash: 'secret' },
    { id: 'b', count: 2, note: 'n', nested: { x: 1 } },
  ] as never);
  app.get('/loose', { schema: { response: { 200: z.looseObject({ error: z.string() }) } } }, async () => ({ error: 'e', status: 'upload_failed' }));
  app.get('/date', { schema: { response: { 200: z.object({ at: z.date() }) } } }, async () => ({ at: new Date('2026-01-02T03:04:05Z') }));
  await app.ready();
  expect((await app.inject({ url: '/list' })).json()).toEqual([
    { id: 'a', count: 1 },
    { id: 'b', count: 2, note: 'n' },
  ]);
  expect((await app.inject({ url: '/loose' })).json()).toEqual({ error: 'e', status: 'upload_failed' });
  // z.date() has no JSON Schema form: the zod serializer takes over.
  expect((await app.inject({ url: '/date' })).json()).toEqual({ at: '2026-01-02T03:04:05.000Z' });
});
