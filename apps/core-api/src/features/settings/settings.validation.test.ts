// Bad input on /api/settings: every refusal is a 400 in the core-api shape naming the field, and the
// stored rows are exactly as before.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { isIanaTimeZone } from './timezone';

let t: TestContext;
let me: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  me = await signUp(t.app);
});
afterAll(async () => t.close());

const snapshot = async () => {
  const sql = t.database.sql;
  const [profile] = await sql`select * from profiles where id = ${me.userId}`;
  const rows: Record<string, unknown> = { profile };
  for (const table of ['user_settings', 'user_notification_settings', 'user_grammar_settings', 'user_privacy_settings', 'user_voice_settings']) {
    [rows[table]] = await sql`select * from ${sql(table)} where user_id = ${me.userId}`;
  }
  return rows;
};

const cases: [string, string, unknown, string][] = [
  ['profile', 'PUT', { timezone: 'Mars/Olympus' }, 'timezone'],
  ['profile', 'PUT', { timezone: '+01:00' }, 'timezone'],
  ['profile', 'PUT', { memories_family_download: 'yes' }, 'memories_family_download'],
  ['profile', 'PUT', { birth_year: 1700 }, 'birth_year'],
  ['profile', 'PUT', { birth_year: 3000 }, 'birth_year'],
  ['profile', 'PUT', { avatar_url: 'javascript:alert(1)' }, 'avatar_url'],
  ['profile', 'PUT', { phone: 'call me' }, 'phone'],
  ['profile', 'PUT', { preferred_method: 'telepathy' }, 'preferred_method'],
  ['profile', 'PUT', { subscription_tier: 'premium' }, 'subscription_tier'],
  ['profile', 'PUT', { full_name: 'A B', first_name: 'C' }, 'full_name'],
  ['profile', 'PUT', { full_name: 'x'.repeat(201) }, 'full_name'],
  ['ui', 'PUT', { text_size_preference: 'huge' }, 'text_size_preference'],
  ['ui', 'PUT', { auto_save_interval_minutes: 0 }, 'auto_save_interval_minutes'],
  ['ui', 'PUT', { auto_save_interval_minutes: 121 }, 'auto_save_interval_minutes'],
  ['ui', 'PUT', { auto_save_interval_minutes: 2.5 }, 'auto_save_interval_minutes'],
  ['ui', 'PUT', { preferred_language: 'english please' }, 'preferred_language'],
  ['ui', 'PUT', { timezone: 'Mars/Olympus' }, 'timezone'],
  ['ui', 'PUT', { writing_prompt_frequency: 'hourly' }, 'writing_prompt_frequency'],
  ['ui', 'PUT', { dark_mode: 'true' }, 'dark_mode'],
  ['notifications', 'PUT', { reminder_frequency: 'yearly' }, 'reminder_frequency'],
  ['notifications', 'PUT', { reminder_time: '25:00' }, 'reminder_time'],
  ['notifications', 'PUT', { email_enabled: null }, 'email_enabled'],
  ['grammar', 'PUT', { suggestion_level: 'extreme' }, 'suggestion_level'],
  ['grammar', 'PUT', { enhancement_style: 'rewrite' }, 'enhancement_style'],
  ['privacy', 'PUT', { profile_visibility: 'everyone' }, 'profile_visibility'],
  ['privacy', 'PUT', { default_story_privacy: 'secret' }, 'default_story_privacy'],
  ['voice', 'PUT', { recording_quality: 'ultra' }, 'recording_quality'],
  ['voice', 'POST', { transcription_accuracy: 'perfect' }, 'transcription_accuracy'],
  ['voice', 'POST', { assistant_conversation_pace: 'warp' }, 'assistant_conversation_pace'],
  ['voice', 'PUT', { unknown_setting: true }, 'unknown_setting'],
];

it.each(cases)('%s %s %j → 400 naming %s, nothing changed', async (section, method, payload, field) => {
  const before = await snapshot();
  const res = await t.app.inject({ method: method as 'PUT', url: `/api/settings/${section}`, headers: me.headers, payload: payload as object });
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(`${body.error} ${body.details ?? ''}`).toContain(field);
  expect(await snapshot()).toEqual(before);
});

it('an empty body is a 400 naming the body', async () => {
  const res = await t.app.inject({ method: 'PUT', url: '/api/settings/ui', headers: me.headers, payload: {} });
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toMatch(/at least one/);
});

it('accepts canonical zones and their aliases, not inventions', () => {
  expect(isIanaTimeZone('America/New_York')).toBe(true);
  expect(isIanaTimeZone('UTC')).toBe(true);
  expect(isIanaTimeZone('US/Eastern')).toBe(true);
  expect(isIanaTimeZone('Mars/Olympus')).toBe(false);
  expect(isIanaTimeZone('')).toBe(false);
  expect(isIanaTimeZone('GMT+5')).toBe(false);
});
