// Factory for the erasure and export tests and the benchmark (CONVENTIONS 12): an account with rows in
// every table that can hold its data, and real files in storage for every row that names one. Built on
// the other factories (stories, campaigns, family groups) and direct inserts for the rest.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import type { ObjectStorage } from '@story/providers';
import { newFamilyGroup } from './family-factories';
import { newCampaign, newStory } from './stories-books-factories';

export interface SeedCounts {
  stories?: number;
  recordings?: number;
  images?: number;
  /** Bytes per media file (recordings, images). */
  fileBytes?: number;
}

export interface Seeded {
  keys: string[];
  campaignId: string;
  groupId: string;
  storyIds: string[];
  /** Bytes of media put in storage. */
  mediaBytes: number;
}

const code = () => randomBytes(6).toString('hex');

/** Rows everywhere for `user`; `other` (optional) gets an invitation to the user's email and a story in the user's campaign. */
export async function seedAccount(sql: Sql, storage: Pick<ObjectStorage, 'put'>, user: { userId: string; email: string }, counts: SeedCounts = {}): Promise<Seeded> {
  const { userId: u, email } = user;
  const keys: string[] = [];
  let mediaBytes = 0;
  const bytes = counts.fileBytes ?? 2048;
  const put = async (prefix: string, ext: string, size = 256, media = false) => {
    const key = `${prefix}/${u}/${randomUUID()}.${ext}`;
    await storage.put(key, randomBytes(size));
    keys.push(key);
    if (media) mediaBytes += size;
    return key;
  };

  for (const table of ['user_settings', 'user_notification_settings', 'user_grammar_settings', 'user_privacy_settings', 'user_voice_settings', 'user_email_preferences'])
    await sql`insert into ${sql(table)} (user_id) values (${u}) on conflict do nothing`;
  await sql`update profiles set full_name = 'Zoë Ångström 王', bio = 'Tells stories' where id = ${u}`;
  await sql`insert into consent_records (user_id, marketing, analytics, third_party) values (${u}, true, false, false)`;
  await sql`insert into user_devices (user_id, platform, push_token) values (${u}, 'ios', ${`push-${code()}`})`;
  await sql`insert into auth_identities (user_id, provider, subject, email) values (${u}, 'google', ${`sub-${code()}`}, ${email})`;

  const campaign = await newCampaign(sql, u, 'Grandma stories');
  await sql`insert into campaign_create_flows (campaign_id, user_id) values (${campaign.id}, ${u})`;
  const storyIds: string[] = [];
  for (let i = 0; i < (counts.stories ?? 3); i++) {
    const s = await newStory(sql, u, { title: `Story ${i} — été`, content: `<p>Once upon a time <strong>${i}</strong>, in 北京.</p>` });
    await sql`update stories set campaign_id = ${campaign.id} where id = ${s.id}`;
    storyIds.push(s.id);
  }
  const firstStory = storyIds[0]!;
  await sql`insert into story_shares (story_id, share_id, created_by) values (${firstStory}, ${code()}, ${u})`;
  const [book] = await sql<{ id: string }[]>`insert into books (user_id, title, campaign_id) values (${u}, 'My book', ${campaign.id}) returning id`;
  await sql`insert into book_chapters (book_id, story_id, chapter_number) values (${book!.id}, ${firstStory}, 1)`;
  await sql`insert into export_jobs (user_id, book_id, kind, status, storage_key) values (${u}, ${book!.id}, 'interior', 'completed', ${await put('exports/books', 'pdf')})`;

  const recordingIds: string[] = [];
  for (let i = 0; i < (counts.recordings ?? 2); i++) {
    const key = await put('recordings', 'mp3', bytes, true);
    const [r] = await sql<{ id: string }[]>`
      insert into recordings (user_id, campaign_id, title, storage_key, audio_url, status, media_type, original_file_size_bytes)
      values (${u}, ${campaign.id}, ${`Recording ${i}`}, ${key}, ${key}, 'completed', 'audio', ${bytes}) returning id`;
    recordingIds.push(r!.id);
  }
  if (recordingIds[0]) {
    await sql`insert into audio_shares (recording_id, created_by, token) values (${recordingIds[0]}, ${u}, ${code()})`;
    await sql`insert into story_conversions (story_id, user_id, source_type, source_id, readiness) values (${firstStory}, ${u}, 'recording', ${recordingIds[0]}, 'ready')`;
  }
  await sql`insert into user_files (user_id, storage_key, folder, file_name, content_type, size_bytes)
            values (${u}, ${await put('uploads', 'pdf', bytes, true)}, 'documents', 'letter.pdf', 'application/pdf', ${bytes})`;
  await sql`insert into ai_request_counters ${sql({ user_id: u, period: 'day', window_start: new Date().toISOString().slice(0, 10), count: 1 })}`;
  const [conv] = await sql<{ id: string }[]>`insert into conversations (user_id, session_id, title) values (${u}, ${`s-${code()}`}, 'Talk') returning id`;
  await sql`insert into conversation_messages (conversation_id, role, content, audio_storage_key) values (${conv!.id}, 'user', 'Hello there', ${await put('conversations', 'webm', 512, true)})`;
  for (let i = 0; i < (counts.images ?? 2); i++) {
    await sql`insert into images (user_id, story_id, storage_key, thumbnail_key, mime_type, title, size_bytes)
              values (${u}, ${firstStory}, ${await put('images', 'jpg', bytes, true)}, ${await put('thumbnails', 'jpg')}, 'image/jpeg', ${`Photo ${i}`}, ${bytes})`;
  }
  await sql`insert into imports (user_id, source_type, storage_key, file_name, title) values (${u}, 'file', ${await put('imports', 'pdf', 300, true)}, 'notes.pdf', 'Notes')`;
  await sql`insert into user_data_exports (user_id, export_type, format, status, storage_key) values (${u}, 'all', 'json', 'completed', ${await put('data-exports', 'json')})`;

  const group = await newFamilyGroup(sql, { ownerId: u, name: 'Privacy family' });
  await sql`insert into family_memories (family_group_id, created_by, title, media)
            values (${group.id}, ${u}, 'Lake', ${JSON.stringify([{ storageKey: await put('family', 'jpg', 400, true), mimeType: 'image/jpeg' }])}::jsonb)`;
  await sql`insert into family_invitations (family_group_id, email, role, token_hash, expires_at, invited_by)
            values (${group.id}, ${`invitee.${code()}@example.test`}, 'family_viewer', ${code()}, now() + interval '1 day', ${u})`;
  const [event] = await sql<{ id: string }[]>`insert into timeline_events (family_group_id, actor_id, event_type) values (${group.id}, ${u}, 'story_added') returning id`;
  await sql`insert into timeline_reactions (event_id, user_id, type) values (${event!.id}, ${u}, 'love')`;

  await sql`insert into achievement_definitions (id, name, criteria) values ('privacy-first-story', 'First story', '{}'::jsonb) on conflict do nothing`;
  await sql`insert into achievement_progress (user_id, achievement_id, target) values (${u}, 'privacy-first-story', 1)`;
  await sql`insert into gifts (user_id, recipient_name, recipient_email, plan_id, code_hash) values (${u}, 'Friend', ${`friend.${code()}@example.test`}, 'family', ${code()})`;
  await sql`insert into invoices (user_id, number, amount_cents) values (${u}, ${`INV-${code()}`}, 999)`;
  await sql`insert into support_flags (user_id, content_type, content_id, reason) values (${u}, 'story', ${firstStory}, 'typo')`;
  await sql`insert into ai_usage_logs (user_id, feature, provider, operation, metadata) values (${u}, 'grammar', 'local', 'llm', ${JSON.stringify({ email })}::jsonb)`;
  await sql`insert into email_send_queue (user_id, to_email, subject, html_content, template_variables) values (${u}, ${email}, 'Hello', '<p>Hi</p>', ${JSON.stringify({ name: email })}::jsonb)`;
  await sql`insert into waitlist (email, converted_user_id) values (${email}, ${u})`;
  const [flag] = await sql<{ id: string }[]>`insert into feature_flags (key) values (${`privacy-${code()}`}) returning id`;
  await sql`insert into feature_flag_overrides (flag_id, user_id, enabled) values (${flag!.id}, ${u}, true)`;
  await sql`insert into admin_audit_log (action, target_type, target_id) values ('user.viewed', 'account', ${u})`;

  const session = `sess_${Date.now()}_${code()}`;
  await sql`insert into tools_sessions (id, user_id, expires_at) values (${session}, ${u}, now() + interval '1 day')`;
  const [prompt] = await sql<{ id: string }[]>`
    insert into tools_story_prompts (user_id, share_code, session_id, content, title) values (${u}, ${code()}, ${session}, '{"prompt":"A door"}'::jsonb, 'Door') returning id`;
  await sql`insert into tools_responses (user_id, tool, prompt_id, session_id, title, content) values (${u}, 'story-prompts', ${prompt!.id}, ${session}, 'Mine', 'I opened it')`;
  await sql`insert into tools_saved_prompts (user_id, content_id, session_id) values (${u}, ${prompt!.id}, ${session})`;
  await sql`insert into tools_analytics (user_id, tool, event_type) values (${u}, 'story-prompts', 'view')`;
  await sql`insert into tools_ai_usage (user_id, tool) values (${u}, 'story-prompts')`;
  await sql`insert into tools_rate_limit_hits (user_id, scope, key, limit_value, current_usage) values (${u}, 'hourly', ${u}, 10, 11)`;
  const [flip] = await sql<{ id: string }[]>`
    insert into tools_flipbooks (user_id, share_code, session_id, content, title) values (${u}, ${code()}, ${session}, '{}'::jsonb, 'Flip') returning id`;
  await sql`insert into tools_flipbook_pages (flipbook_id, page_number, storage_key, thumbnail_key) values (${flip!.id}, 1, ${await put('flipbooks', 'png', 200, true)}, ${await put('flipbooks', 'png')})`;
  return { keys, campaignId: campaign.id, groupId: group.id, storyIds, mediaBytes };
}

/** Ties between two accounts: `b` in `a`'s family, a story by `b` in `a`'s campaign, an invitation to `b`'s email from `a`. */
export async function linkAccounts(sql: Sql, a: { userId: string; seeded: Seeded }, b: { userId: string; email: string }): Promise<void> {
  await sql`insert into family_members (family_group_id, user_id, role, email) values (${a.seeded.groupId}, ${b.userId}, 'family_contributor', ${b.email})`;
  const s = await newStory(sql, a.userId, { title: 'Told by b', authorId: b.userId });
  await sql`update stories set campaign_id = ${a.seeded.campaignId} where id = ${s.id}`;
  await sql`insert into family_invitations (family_group_id, email, role, token_hash, expires_at, invited_by)
            values (${a.seeded.groupId}, ${b.email}, 'family_viewer', ${code()}, now() + interval '1 day', ${a.userId})`;
}
