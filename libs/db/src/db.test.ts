import { accounts, isUniqueViolation, openDatabase } from './index';
import { createTestDatabase, type TestDatabase } from './test/test-database';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

const tables = async () => (await t.sql<{ table_name: string }[]>`select table_name from information_schema.tables where table_schema = 'public'`).map((r) => r.table_name);

it('migrations create every table the three documents name', async () => {
  const names = await tables();
  const expected = [
    'accounts', 'profiles', 'auth_sessions', 'campaigns', 'stories', 'story_conversions', 'story_shares', 'recordings',
    'conversations', 'conversation_messages', 'books', 'book_chapters', 'book_templates', 'cover_templates', 'family_groups',
    'family_members', 'family_invitations', 'family_relationships', 'family_memories', 'timeline_events', 'timeline_reactions',
    'gifts', 'imports', 'achievement_definitions', 'achievement_progress', 'images', 'audio_shares', 'export_jobs', 'invoices',
    'support_flags', 'consent_records', 'ai_usage_logs', 'user_settings', 'user_notification_settings', 'user_grammar_settings',
    'user_privacy_settings', 'user_voice_settings', 'user_data_exports', 'user_devices', 'email_templates', 'email_template_versions',
    'email_automation_rules', 'email_send_queue', 'user_email_preferences', 'email_analytics', 'email_ab_tests', 'email_delivery_events',
    'feature_flags', 'feature_flag_overrides', 'ai_prompt_templates', 'ai_prompt_template_versions', 'voices', 'ai_provider_configs',
    'content_blocks', 'editor_templates', 'story_prompt_library', 'story_prompt_collections', 'blurb_samples', 'blurb_queue', 'resources',
    'waitlist', 'admin_audit_log', 'tools_responses', 'tools_collections', 'tools_sessions', 'tools_rate_limits', 'tools_analytics',
    'tools_ai_usage', 'jobs',
  ];
  for (const name of expected) expect(names).toContain(name);
  // One content table per tool: sixteen.
  const toolTables = names.filter((n) => n.startsWith('tools_') && !['tools_responses', 'tools_collections', 'tools_collection_items', 'tools_sessions', 'tools_rate_limits', 'tools_analytics', 'tools_ai_usage', 'tools_rate_limit_hits', 'tools_bulk_jobs', 'tools_flipbook_pages', 'tools_saved_prompts', 'tools_search', 'tools_search_changes', 'tools_search_state'].includes(n));
  expect(toolTables).toHaveLength(16);
});

it('every foreign key column is the leading column of some index', async () => {
  const unindexed = await t.sql<{ tbl: string; col: string }[]>`
    select c.conrelid::regclass::text as tbl, a.attname as col
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.connamespace = 'public'::regnamespace
      and not exists (
        select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1]
      )`;
  expect(unindexed).toEqual([]);
});

it('enforces checks, uniqueness and cascades', async () => {
  const [a] = await t.db.insert(accounts).values({ email: 'cascade@example.test' }).returning();
  const duplicate = await t.db
    .insert(accounts)
    .values({ email: 'cascade@example.test' })
    .then(() => null, (e: unknown) => e);
  expect(isUniqueViolation(duplicate, 'accounts_email_key')).toBe(true);
  await expect(t.sql`insert into campaigns (user_id, title, storyteller_name, relationship) values (${a!.id}, 't', 's', 'cousin')`).rejects.toThrow(/check/);
  await t.sql`insert into campaigns (user_id, title, storyteller_name, relationship) values (${a!.id}, 't', 's', 'parent')`;
  await t.sql`delete from accounts where id = ${a!.id}`;
  expect(await t.sql`select 1 from campaigns where user_id = ${a!.id}`).toHaveLength(0);
});

it('runs sessions in UTC, so zone-less columns (recordings, stories, books) hold UTC wall time', async () => {
  const [row] = await t.sql`select current_setting('TimeZone') as tz, localtimestamp = (now() at time zone 'UTC') as same`;
  expect(row).toEqual({ tz: 'UTC', same: true });
});

it('openDatabase explains what to do when no server answers', async () => {
  await expect(openDatabase({ embeddedPort: 1, poolMax: 1 }, 'test')).rejects.toThrow(/no embedded PostgreSQL answers on port 1: run `npm start`/);
});
