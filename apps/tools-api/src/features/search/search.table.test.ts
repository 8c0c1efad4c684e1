// tools_search is kept by the source tables' triggers in the same statement as the write: inserts,
// updates (a view count keeps the vector), soft and hard deletes, of content and of responses; and the
// outbox is fed only while an external engine is on.
import { createTestDatabase, type TestDatabase } from '@story/testing';
import { newContent, newResponse } from '../../test/content-factory';
import { setExternalSearch } from './search.sync';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop());

const row = async (id: string) => (await db.sql`select * from tools_search where id = ${id}`)[0];

it('mirrors content and responses through insert, update and delete', async () => {
  const item = await newContent(db.sql, 'mystery-plot-generator', { title: 'The locked observatory', content: { plot: 'A telescope points at the wrong star.' }, viewCount: 3 });
  expect(await row(item.id)).toMatchObject({ tool: 'mystery-plot-generator', kind: 'content', title: 'The locked observatory', view_count: 3, is_public: true, deleted_at: null });
  const [found] = await db.sql`select count(*)::int as n from tools_search where search_vector @@ websearch_to_tsquery('english', 'telescope') and id = ${item.id}`;
  expect(found?.['n']).toBe(1);

  await db.sql`update tools_mystery_plots set view_count = view_count + 1, is_public = false where id = ${item.id}`;
  expect(await row(item.id)).toMatchObject({ view_count: 4, is_public: false });
  await db.sql`update tools_mystery_plots set content = ${JSON.stringify({ plot: 'A sextant is missing.' })}::jsonb where id = ${item.id}`;
  const [moved] = await db.sql`select (search_vector @@ to_tsquery('english', 'sextant')) as sextant, (search_vector @@ to_tsquery('english', 'telescope')) as telescope from tools_search where id = ${item.id}`;
  expect(moved).toEqual({ sextant: true, telescope: false });
  await db.sql`update tools_mystery_plots set deleted_at = now() where id = ${item.id}`;
  expect((await row(item.id))?.['deleted_at']).not.toBeNull();

  const response = await newResponse(db.sql, item, { title: 'My observatory answer', content: 'The star was a satellite.', isPublic: true });
  expect(await row(response.id)).toMatchObject({ tool: 'mystery-plot-generator', kind: 'responses', prompt_id: item.id, moderation_status: 'pending' });
  await db.sql`update tools_responses set moderation_status = 'rejected' where id = ${response.id}`;
  expect((await row(response.id))?.['moderation_status']).toBe('rejected');
  await db.sql`delete from tools_responses where id = ${response.id}`;
  await db.sql`delete from tools_mystery_plots where id = ${item.id}`;
  expect(await row(response.id)).toBeUndefined();
  expect(await row(item.id)).toBeUndefined();
});

it('notes changed ids in the outbox only while an external engine is on', async () => {
  const before = await newContent(db.sql, 'comedy-prompts', { title: 'Penguin stand-up' });
  expect((await db.sql`select id from tools_search_changes`).length).toBe(0);
  expect(await setExternalSearch(db.sql, true)).toEqual({ queued: expect.any(Number) });
  const queued = await db.sql<{ id: string }[]>`select id from tools_search_changes`;
  expect(queued.map((q) => q.id)).toContain(before.id);
  expect(await setExternalSearch(db.sql, true)).toEqual({ queued: 0 }); // already on: no second full queue
  await db.sql`delete from tools_search_changes`;
  await db.sql`update tools_comedy_prompts set view_count = 9 where id = ${before.id}`;
  expect((await db.sql<{ id: string }[]>`select id from tools_search_changes`).map((q) => q.id)).toEqual([before.id]);
  await setExternalSearch(db.sql, false);
  expect((await db.sql`select id from tools_search_changes`).length).toBe(0);
  await db.sql`update tools_comedy_prompts set view_count = 10 where id = ${before.id}`;
  expect((await db.sql`select id from tools_search_changes`).length).toBe(0);
});
