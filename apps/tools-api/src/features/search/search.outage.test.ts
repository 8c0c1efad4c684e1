// Meilisearch going away (docs/reliability.md "Search engine outage"): GET /api/search keeps answering
// 200 from PostgreSQL full text with the same visibility, the outage is logged once, /health says
// degraded, and Meilisearch serves again once it is back.
import { logCapture } from '@story/testing';
import { newContent, newSession } from '../../test/content-factory';
import { buildTestApp, type TestContext } from '../../test/helper';
import { startMeiliFake, type MeiliFake } from '../../test/meilisearch-fake';
import { buildApp } from '../../app';
import { syncSearch } from './search.sync';
import { meiliIndex } from './search.meilisearch';

let t: TestContext;
let fake: MeiliFake;
const logs = logCapture();
const owner = newSession();

beforeAll(async () => {
  fake = await startMeiliFake();
  const base = await buildTestApp({ SEARCH_PROVIDER: 'meilisearch', MEILI_URL: fake.url, MEILI_API_KEY: fake.apiKey, MEILI_INDEX: 'tools_outage', LOG_LEVEL: 'info' });
  // The same database and config, with a log we read and a short retry.
  await base.app.close();
  const app = await buildApp({ config: base.config, deps: { database: base.database, logStream: logs.stream, searchRetryMs: 200 } });
  await app.ready();
  t = { ...base, app, close: async () => (await app.close(), await base.database.drop()) };
  const sql = t.database.sql;
  await newContent(sql, 'story-prompts', { title: 'The Lighthouse Keeper', content: { prompt: 'A lighthouse keeper finds a letter in the lamp room.' }, keywords: ['lighthouse'] });
  await newContent(sql, 'plot-twists', { title: 'Harbour twist', content: { twist: 'The lighthouse beam proves the alibi.' } });
  await newContent(sql, 'story-prompts', { title: 'Private lighthouse diary', isPublic: false, sessionId: owner });
  await newContent(sql, 'story-prompts', { title: 'Hidden lighthouse diary', isPublic: false, sessionId: newSession() });
  await t.app.toolsJobs.drain();
  await syncSearch({ sql, index: () => meiliIndex({ url: fake.url, apiKey: fake.apiKey, index: 'tools_outage' }) });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const search = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/search?q=lighthouse&sort=date', headers });
const titles = (res: Awaited<ReturnType<typeof search>>) => (res.json().data.content as { title: string }[]).map((h) => h.title).sort();
const health = async () => (await t.app.inject({ method: 'GET', url: '/health' })).json();

it('answers from PostgreSQL full text while Meilisearch is down, says so in /health, and goes back to Meilisearch', async () => {
  const before = await search({ 'x-session-id': owner });
  expect(before.statusCode).toBe(200);
  expect(fake.calls.filter((c) => c.endsWith('/search')).length).toBeGreaterThan(0);
  const expected = ['Harbour twist', 'Private lighthouse diary', 'The Lighthouse Keeper'];
  expect(titles(before)).toEqual(expected);
  expect((await health()).checks.search).toBe('ok');

  const port = Number(new URL(fake.url).port);
  await fake.close();
  const during = [await search({ 'x-session-id': owner }), await search({ 'x-session-id': owner }), await search()];
  expect(during.map((r) => r.statusCode)).toEqual([200, 200, 200]);
  // The same items and the same visibility: the owner's private item for the owner only, never another's.
  expect(titles(during[0]!)).toEqual(expected);
  expect(titles(during[2]!)).toEqual(['Harbour twist', 'The Lighthouse Keeper']);
  expect(during[0]!.json().data.content.every((h: { excerpt: string }) => h.excerpt.length > 0)).toBe(true);
  expect(logs.lines.filter((l) => l.includes('Meilisearch does not answer'))).toHaveLength(1);

  await new Promise((r) => setTimeout(r, 250)); // the search check's result stands one retry (200 ms here)
  const degraded = await t.app.inject({ method: 'GET', url: '/health' });
  expect(degraded.statusCode).toBe(200);
  expect(degraded.json()).toMatchObject({ status: 'degraded', checks: { search: { status: 'degraded', engine: 'postgres' } } });

  fake = await startMeiliFake(fake.apiKey, port);
  await syncSearch({ sql: t.database.sql, index: () => meiliIndex({ url: fake.url, apiKey: fake.apiKey, index: 'tools_outage' }) }).catch(() => undefined);
  // A fresh fake has no documents: push them again as the sync job would after a real engine's data loss.
  await t.database.sql`insert into tools_search_changes (id) select id from tools_search on conflict (id) do nothing`;
  await syncSearch({ sql: t.database.sql, index: () => meiliIndex({ url: fake.url, apiKey: fake.apiKey, index: 'tools_outage' }) });
  await new Promise((r) => setTimeout(r, 250));
  const after = await search({ 'x-session-id': owner });
  expect(after.statusCode).toBe(200);
  expect(titles(after)).toEqual(expected);
  expect(fake.calls.filter((c) => c.endsWith('/search')).length).toBeGreaterThan(0);
  expect(logs.lines.filter((l) => l.includes('Meilisearch answers again'))).toHaveLength(1);
}, 20_000);
