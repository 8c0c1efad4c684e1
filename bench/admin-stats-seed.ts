// Rows for bench/admin-stats.ts: accounts with profiles and sessions, and campaigns, conversations, family,
// books, media, invoices, waitlist and stories in proportion, all generated in SQL.
import type postgres from 'postgres';

async function timed(say: (line: string) => void, label: string, work: () => Promise<unknown>) {
  const t0 = performance.now();
  await work();
  say(`${label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

export async function seedAdminStats(sql: postgres.Sql, users: number, stories: number, say: (line: string) => void): Promise<void> {
  await timed(say, `${users} accounts, profiles, sessions`, async () => {
    await sql`insert into accounts (email, created_at, last_sign_in_at, email_confirmed_at)
      select 'u' || i || '@bench.test', now() - random() * interval '400 days',
             case when random() < 0.7 then now() - random() * interval '60 days' end, case when random() < 0.8 then now() end
      from generate_series(1, ${users}::int) i`;
    await sql`insert into profiles (id, subscription_tier, subscription_status)
      select id, (array['free','free','free','starter','family','premium'])[1 + floor(random() * 6)::int],
             case when random() < 0.05 then 'cancelled' end
      from accounts`;
    await sql`insert into auth_sessions (user_id, created_at, refreshed_at, expires_at)
      select id, now() - random() * interval '90 days', case when random() < 0.5 then now() - random() * interval '20 days' end, now() + interval '30 days'
      from accounts, generate_series(1, 2) where random() < 0.75`;
  });
  await timed(say, 'campaigns, conversations, family, books, media, invoices, waitlist', async () => {
    await sql`insert into campaigns (user_id, title, storyteller_name, relationship, status, prompts_sent, created_at)
      select id, 'Campaign', 'Storyteller', 'parent', (array['active','paused','completed'])[1 + floor(random() * 3)::int], floor(random() * 20)::int,
             now() - random() * interval '300 days'
      from accounts where random() < 0.5`;
    await sql`insert into conversations (user_id, title, created_at) select id, 'Talk', now() - random() * interval '300 days' from accounts, generate_series(1, 2) where random() < 0.5`;
    await sql`insert into conversation_messages (conversation_id, role, content, created_at)
      select c.id, (array['assistant','user'])[1 + (g % 2)], 'text', c.created_at + g * interval '1 minute' from conversations c, generate_series(1, 4) g`;
    await sql`insert into family_groups (created_by, name) select id, 'Family' from accounts where random() < 0.2`;
    await sql`insert into family_members (family_group_id, user_id, status) select g.id, g.created_by, 'active' from family_groups g`;
    await sql`insert into family_members (family_group_id, display_name, status) select g.id, 'Relative', 'active' from family_groups g, generate_series(1, 2)`;
    await sql`insert into family_invitations (family_group_id, email, role, token_hash, expires_at)
      select g.id, 'inv' || n || '@bench.test', 'family_viewer', md5(g.id::text || n), now() + interval '7 days' from family_groups g, generate_series(1, 2) n`;
    await sql`insert into books (user_id, title, status, created_at, updated_at)
      select id, 'Book', (array['draft','in_progress','completed','published'])[1 + floor(random() * 4)::int], now() - random() * interval '200 days', now() - random() * interval '100 days'
      from accounts where random() < 0.2`;
    await sql`insert into images (user_id, storage_key, mime_type) select id, 'img/' || id, 'image/jpeg' from accounts where random() < 0.5`;
    await sql`insert into recordings (user_id, storage_key, media_type) select id, 'rec/' || id || '/' || n, (array['audio','audio','video'])[n] from accounts, generate_series(1, 3) n where random() < 0.4`;
    await sql`insert into invoices (user_id, number, amount_cents, status, paid_at)
      select id, 'INV-' || id, 999 + floor(random() * 4000)::int, 'paid', now() - random() * interval '90 days' from accounts where random() < 0.3`;
    await sql`insert into waitlist (email, verified, free_eligible, converted_at)
      select 'w' || i || '@bench.test', random() < 0.6, random() < 0.3, case when random() < 0.2 then now() end from generate_series(1, ${Math.ceil(users / 3)}::int) i`;
  });
  const CHUNK = 250_000;
  for (let from = 1; from <= stories; from += CHUNK) {
    const to = Math.min(stories, from + CHUNK - 1);
    // Stories belong to random accounts; 60% answer a campaign (a random campaign: its owner is not checked here).
    await timed(say, `stories ${from}..${to}`, () => sql`
      with a as (select array_agg(id) as ids from accounts), c as (select array_agg(id) as ids from campaigns)
      insert into stories (user_id, campaign_id, title, word_count, created_at)
      select a.ids[1 + floor(random() * array_length(a.ids, 1))::int],
             case when random() < 0.6 then c.ids[1 + floor(random() * array_length(c.ids, 1))::int] end,
             'Story ' || i, floor(random() * 2000)::int, (now() at time zone 'UTC') - random() * interval '400 days'
      from generate_series(${from}::int, ${to}::int) i, a, c`);
  }
  await timed(say, 'vacuum analyze', () => sql`vacuum analyze`);
}

