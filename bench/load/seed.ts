// The data the load mix starts from. Accounts, campaigns and the first recordings go through the API (as
// users make them); tools content and sent emails are written with SQL (they come from other users' past
// generations and from the email worker, which the mix does not exercise).
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import postgres from 'postgres';
import { multipart, send } from './http';
import type { VirtualUser } from './mix';

export const TOOLS_ROWS = 5_000;
export const SENT_EMAILS = 2_000;
/** Recordings each user has before the load starts (so conversions have sources from the first second). */
export const RECORDINGS_PER_USER = 3;
/** Words planted in the tools content, searched for by the mix. */
export const SEARCH_WORDS: [string, ...string[]] = ['secret', 'lighthouse', 'letter', 'winter', 'garden', 'stranger', 'harbor', 'midnight', 'violin', 'orchard'];

const FILLER = 'night house old family river town door shadow road light dark heart window storm truth memory dream voice forest sister brother father promise journey island city morning silent hidden quiet'.split(' ');

/**
 * A browser caption long enough for a "ready" story (150+ words) and plain enough for the offline writer
 * to keep every detail. One transcript for every upload: the mix is about the path, not the words.
 */
export const TRANSCRIPT =
  'um so my father Antonio he he bought the farm near Salerno in 1952, and uh we had three cows and a donkey called Bruno. ' +
  'every morning I walked two miles to the school in the village, you know, and my sister Lucia came with me. ' +
  'the teacher was very strict, she made us copy the same letters again and again until our hands were sore. ' +
  'in the winter the road was all mud and we came home with our shoes ruined and my mother was so angry. ' +
  'when I was twelve we moved to Naples because my father found work at the port, loading ships from morning till night. ' +
  'I missed the farm terribly, the smell of the hay, the sound of Bruno in the morning, and the big fig tree behind the house ' +
  'where Lucia and I used to hide from our chores on long summer afternoons. I still dream about that farm. ' +
  'my mother kept chickens too, and every Sunday she made bread in the big stone oven, and the whole house smelled of it.';

async function call<T>(agent: http.Agent, base: string, path: string, init: { body?: Buffer | string; headers?: Record<string, string>; expect: number }): Promise<T> {
  const answer = await send(agent, new URL(path, base), { method: 'POST', headers: init.headers, body: init.body });
  const text = answer.body.toString('utf8');
  if (answer.status !== init.expect) throw new Error(`seed: POST ${path} answered ${answer.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** `count` storytellers (family tier), each with one campaign and RECORDINGS_PER_USER recordings. */
export async function seedUsers(count: number, coreUrl: string, agent: http.Agent, databaseUrl: string, audio: Buffer): Promise<VirtualUser[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const make = async (index: number): Promise<VirtualUser> => {
      const ip = `198.51.${100 + Math.floor(index / 250)}.${(index % 250) + 1}`;
      const email = `load-${index}-${randomBytes(4).toString('hex')}@example.test`;
      const password = `load-${randomBytes(6).toString('hex')}-1`;
      const json = { 'content-type': 'application/json', 'x-forwarded-for': ip };
      const signup = await call<{ user: { id: string }; session: { access_token: string } }>(agent, coreUrl, '/api/auth/signup', {
        headers: json,
        body: JSON.stringify({ email, password, fullName: `Storyteller ${index}` }),
        expect: 201,
      });
      const userId = signup.user.id;
      const token = signup.session.access_token;
      // No billing route exists: the tier is set directly (the free tier's 30 voice minutes would run out).
      await sql`update profiles set subscription_tier = 'family' where id = ${userId}`;
      const auth = { ...json, authorization: `Bearer ${token}` };
      const campaign = await call<{ id: string }>(agent, coreUrl, '/api/campaigns', { headers: auth, body: JSON.stringify({ title: `Memories of storyteller ${index}` }), expect: 201 });
      const vu: VirtualUser = { index, email, password, userId, token, campaignId: campaign.id, unconverted: [], toolsSession: `sess_${Date.now()}_${randomBytes(8).toString('hex')}`, ip };
      for (let i = 0; i < RECORDINGS_PER_USER; i++) {
        const { body, contentType } = multipart({ title: `Seed recording ${i + 1}`, campaignId: campaign.id, transcript: TRANSCRIPT }, { field: 'audio', filename: 'memory.wav', type: 'audio/wav', data: audio });
        const up = await call<{ recording: { id: string } }>(agent, coreUrl, '/api/recordings', { headers: { authorization: auth.authorization, 'x-forwarded-for': ip, 'content-type': contentType }, body, expect: 201 });
        vu.unconverted.push(up.recording.id);
      }
      return vu;
    };
    const users: VirtualUser[] = [];
    // A few at a time: sign-up hashes a password (argon2id) and the machine has two cores.
    for (let i = 0; i < count; i += 4) users.push(...(await Promise.all(Array.from({ length: Math.min(4, count - i) }, (_, k) => make(i + k)))));
    return users;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** TOOLS_ROWS plot twists of past visitors (a third public, so browse has pages) and SENT_EMAILS sent emails. */
export async function seedTablesDirectly(databaseUrl: string, runId: string): Promise<{ messageIds: [string, ...string[]] }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(
      `insert into tools_plot_twists (share_code, session_id, is_public, share_type, is_featured, is_reviewed, view_count, rating_sum, rating_count,
          title, seo_title, seo_description, keywords, category, ai_model, ai_tokens_used, generation_time_ms, content, generation_options, created_at, updated_at)
       select 'pt_seed_' || g, 'sess_1700000000000_seed' || (g % 500), g % 3 = 0, case when g % 3 = 0 then 'public' else 'private' end, g % 97 = 0, g % 3 = 0,
              floor(pow(random(), 3) * 5000)::int, (g % 6) * 4, g % 6, t, t, t || ': a twist nobody saw coming.', array[w1, w2], 'mystery', 'local', 400, 12,
              jsonb_build_object('title', t, 'genre', 'mystery', 'twists', jsonb_build_array(jsonb_build_object('twist', body, 'setup', body, 'foreshadowing', jsonb_build_array(w1), 'impact', w2))),
              jsonb_build_object('genre', 'mystery'), ts, ts
         from (select g, initcap(w1 || ' ' || w2) as t, w1, w2, ts,
                      'The ' || w1 || ' at the ' || w2 || ' was never what it seemed: ' || f1 || ' ' || f2 || ' ' || f3 || '.' as body
                 from (select g, ($1::text[])[1 + g % ${SEARCH_WORDS.length}] as w1, ($2::text[])[1 + (g * 7) % ${FILLER.length}] as w2,
                              ($2::text[])[1 + (g * 3) % ${FILLER.length}] as f1, ($2::text[])[1 + (g * 11) % ${FILLER.length}] as f2,
                              ($2::text[])[1 + (g * 13) % ${FILLER.length}] as f3, now() - random() * interval '200 days' as ts
                         from generate_series(1, ${TOOLS_ROWS}) g) s0) s`,
      [SEARCH_WORDS, FILLER],
    );
    const [template] = await sql<{ id: string }[]>`
      insert into email_templates (name, display_name, category, subject_template, html_template, text_template)
      values ('load_story_digest', 'Story digest', 'transactional', 'A new story is waiting', '<p>{{story_title}}</p>', '{{story_title}}') returning id`;
    await sql.unsafe(
      `insert into email_send_queue (template_id, to_email, subject, html_content, text_content, status, sent_at, provider_message_id, message_id_header)
       select $1, 'reader' || g || '@example.test', 'A new story is waiting', '<p>A story</p>', 'A story', 'sent', now() - interval '1 minute',
              'load-msg-${runId}-' || g, '<load-msg-${runId}-' || g || '@example.test>'
         from generate_series(1, ${SENT_EMAILS}) g`,
      [template?.id ?? null],
    );
    await sql`analyze`;
    return { messageIds: [`load-msg-${runId}-1`, ...Array.from({ length: SENT_EMAILS - 1 }, (_, i) => `load-msg-${runId}-${i + 2}`)] };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
