// /api/settings against a real database: defaults, partial updates (only the sent fields change, the row
// is upserted), the one home of each setting, the read-only email, names derived from full_name, the
// time zone and the family-download switch, and each caller touching only their own rows.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';

let t: TestContext;
let me: SignedUp;
let other: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  me = await signUp(t.app);
  other = await signUp(t.app);
});
afterAll(async () => t.close());

const get = (url: string, who: SignedUp = me) => t.app.inject({ method: 'GET', url, headers: who.headers });
const put = (url: string, payload: unknown, who: SignedUp = me, method: 'PUT' | 'POST' = 'PUT') =>
  t.app.inject({ method, url, headers: who.headers, payload: payload as object });

describe('defaults', () => {
  it('every section answers the spec defaults, also for an account with no settings rows at all', async () => {
    const sql = t.database.sql;
    for (const table of ['user_settings', 'user_notification_settings', 'user_grammar_settings', 'user_privacy_settings', 'user_voice_settings']) {
      await sql`delete from ${sql(table)} where user_id = ${me.userId}`;
    }
    const ui = (await get('/api/settings/ui')).json();
    expect(ui.settings).toEqual({
      preferred_language: 'en', dark_mode: false, text_size_preference: 'medium', timezone: 'America/New_York', high_contrast_mode: false,
      reduce_motion: false, screen_reader_optimized: false, system_announcements: true, sound_notifications: true, writing_prompts: true,
      writing_prompt_frequency: 'weekly', auto_save_enabled: true, auto_save_interval_minutes: 5, show_writing_tips: true, show_onboarding_hints: true,
    });
    expect(ui.updated_at).toBeNull();
    expect((await get('/api/settings/notifications')).json().settings).toEqual({
      email_enabled: true, story_updates: true, family_invitations: true, weekly_digest: true, marketing_emails: false, sms_enabled: false,
      story_comments: true, collaboration_updates: true, push_enabled: true, writing_reminders: false, reminder_frequency: 'weekly', reminder_time: '09:00:00',
    });
    expect((await get('/api/settings/grammar')).json().settings).toEqual({
      grammar_enabled: true, auto_correct: false, suggestion_level: 'moderate', tone_suggestions: true, clarity_suggestions: true,
      ai_enhancement_enabled: false, enhancement_style: 'preserve',
    });
    expect((await get('/api/settings/privacy')).json().settings).toEqual({
      profile_visibility: 'private', show_in_directory: false, allow_story_discovery: false, default_story_privacy: 'private',
      allow_family_collaboration: true, require_approval_for_shares: true, analytics_enabled: true, improvement_data_sharing: true, marketing_data_usage: false, keep_photo_location: false,
    });
    // Exactly the seven fields of spec 000.
    expect((await get('/api/settings/voice')).json()).toEqual({
      settings: {
        recording_quality: 'high', noise_reduction: true, auto_transcription: true, voice_enhancement: false,
        assistant_response_style: 'concise', assistant_question_frequency: 'moderate', assistant_conversation_pace: 'natural',
      },
    });
    const prefs = (await get('/api/settings/voice-preferences')).json();
    expect(prefs.preferences).toMatchObject({ preferred_language: 'en', transcription_accuracy: 'balanced', recording_quality: 'high' });
    expect(prefs.options.recording_quality).toEqual(['standard', 'high', 'premium']);
    // Reading made no rows.
    expect(await sql`select 1 from user_settings where user_id = ${me.userId}`).toHaveLength(0);
  });
});

describe('partial updates', () => {
  it('PUT changes only the fields sent and upserts the missing row', async () => {
    const sql = t.database.sql;
    await sql`delete from user_notification_settings where user_id = ${me.userId}`;
    const res = await put('/api/settings/notifications', { weekly_digest: false, reminder_time: '07:30' });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({ weekly_digest: false, reminder_time: '07:30:00', email_enabled: true, story_updates: true });
    const [row] = await sql`select weekly_digest, reminder_time, email_enabled, marketing_emails from user_notification_settings where user_id = ${me.userId}`;
    expect(row).toEqual({ weekly_digest: false, reminder_time: '07:30:00', email_enabled: true, marketing_emails: false });

    await put('/api/settings/notifications', { marketing_emails: true });
    const [after] = await sql`select weekly_digest, marketing_emails from user_notification_settings where user_id = ${me.userId}`;
    expect(after).toEqual({ weekly_digest: false, marketing_emails: true });
  });

  it('updated_at moves on each change', async () => {
    const first = (await put('/api/settings/grammar', { suggestion_level: 'light' })).json();
    await new Promise((r) => setTimeout(r, 5));
    const second = (await put('/api/settings/grammar', { enhancement_style: 'improve' })).json();
    expect(second.settings).toMatchObject({ suggestion_level: 'light', enhancement_style: 'improve' });
    expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
  });

  it('voice answers to PUT and POST alike, with the seven fields; language and accuracy are kept too', async () => {
    const viaPost = await put('/api/settings/voice', { recording_quality: 'premium', transcription_accuracy: 'accuracy' }, me, 'POST');
    expect(viaPost.statusCode).toBe(200);
    expect(Object.keys(viaPost.json().settings).sort()).toEqual(
      ['assistant_conversation_pace', 'assistant_question_frequency', 'assistant_response_style', 'auto_transcription', 'noise_reduction', 'recording_quality', 'voice_enhancement'],
    );
    const viaPut = await put('/api/settings/voice', { assistant_conversation_pace: 'slow' });
    expect(viaPut.json().settings).toMatchObject({ recording_quality: 'premium', assistant_conversation_pace: 'slow' });
    const [row] = await t.database.sql`select recording_quality, transcription_accuracy, assistant_conversation_pace from user_voice_settings where user_id = ${me.userId}`;
    expect(row).toEqual({ recording_quality: 'premium', transcription_accuracy: 'accuracy', assistant_conversation_pace: 'slow' });
    expect((await get('/api/settings/voice-preferences')).json().preferences.transcription_accuracy).toBe('accuracy');
  });

  it("one caller's changes never reach another's rows", async () => {
    await put('/api/settings/privacy', { profile_visibility: 'family', analytics_enabled: false });
    expect((await get('/api/settings/privacy', other)).json().settings).toMatchObject({ profile_visibility: 'private', analytics_enabled: true });
    const rows = await t.database.sql`select user_id, profile_visibility from user_privacy_settings where profile_visibility = 'family'`;
    expect(rows).toEqual([{ user_id: me.userId, profile_visibility: 'family' }]);
  });
});

describe('profile', () => {
  it('derives first and last name, carries the time zone and the family-download switch with its text', async () => {
    const res = await put('/api/settings/profile', { full_name: 'Mary Ann  Smith', timezone: 'Europe/Berlin', memories_family_download: false, bio: 'Storyteller' });
    expect(res.statusCode).toBe(200);
    const { profile, descriptions } = res.json();
    expect(profile).toMatchObject({ email: me.email, full_name: 'Mary Ann  Smith', first_name: 'Mary', last_name: 'Ann Smith', timezone: 'Europe/Berlin', memories_family_download: false, bio: 'Storyteller' });
    expect(descriptions.memories_family_download).toMatch(/whole of the legacy arrangement/);
    const [row] = await t.database.sql`select full_name, timezone, memories_family_download from profiles where id = ${me.userId}`;
    expect(row).toEqual({ full_name: 'Mary Ann  Smith', timezone: 'Europe/Berlin', memories_family_download: false });
  });

  it('first_name / last_name rebuild full_name, keeping the half not sent', async () => {
    await put('/api/settings/profile', { full_name: 'Ada Lovelace' });
    const res = await put('/api/settings/profile', { last_name: 'King' });
    expect(res.json().profile).toMatchObject({ full_name: 'Ada King', first_name: 'Ada', last_name: 'King' });
  });

  it('the time zone is one setting in one place: the UI section reads and writes profiles.timezone', async () => {
    const res = await put('/api/settings/ui', { timezone: 'Asia/Tokyo', dark_mode: true });
    expect(res.json().settings).toMatchObject({ timezone: 'Asia/Tokyo', dark_mode: true });
    expect((await get('/api/settings/profile')).json().profile.timezone).toBe('Asia/Tokyo');
    const cols = await t.database.sql`select column_name from information_schema.columns where table_name = 'user_settings' and column_name = 'timezone'`;
    expect(cols).toHaveLength(0);
  });

  it('email is read-only: the current address is ignored, another is refused and nothing changes', async () => {
    const same = await put('/api/settings/profile', { email: me.email.toUpperCase(), display_name: 'Ada' });
    expect(same.statusCode).toBe(200);
    expect(same.json().profile.display_name).toBe('Ada');
    const other = await put('/api/settings/profile', { email: 'new@example.test', display_name: 'Changed' });
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toMatch(/email/);
    const [row] = await t.database.sql`select a.email, p.display_name from accounts a join profiles p on p.id = a.id where a.id = ${me.userId}`;
    expect(row).toEqual({ email: me.email, display_name: 'Ada' });
  });

  it('GET /api/settings/app gathers every section, the profile and the allowed values', async () => {
    const res = await get('/api/settings/app');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body.settings).sort()).toEqual(['grammar', 'notifications', 'privacy', 'ui', 'voice']);
    expect(body.settings.ui.dark_mode).toBe(true);
    expect(body.settings.voice.transcription_accuracy).toBe('accuracy');
    expect(body.profile.id).toBe(me.userId);
    expect(body.options.ui.text_size_preference).toEqual(['small', 'medium', 'large', 'extra-large']);
    expect(body.options.profile.preferred_method).toEqual(['voice', 'text', 'mixed']);
  });

  it('an account without a profile row reads the defaults, and a PUT makes the row', async () => {
    const lone = await signUp(t.app);
    await t.database.sql`delete from profiles where id = ${lone.userId}`;
    const res = await get('/api/settings/profile', lone);
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({
      id: lone.userId, email: lone.email, full_name: null, first_name: '', last_name: '', timezone: 'America/New_York',
      memories_family_download: true, preferred_method: 'mixed', technology_comfort: 'somewhat_comfortable', subscription_tier: 'free', updated_at: null,
    });
    const put1 = await put('/api/settings/profile', { memories_family_download: false }, lone);
    expect(put1.json().profile.memories_family_download).toBe(false);
    const [row] = await t.database.sql`select memories_family_download, subscription_tier from profiles where id = ${lone.userId}`;
    expect(row).toEqual({ memories_family_download: false, subscription_tier: 'free' });
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings/profile' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });
});
