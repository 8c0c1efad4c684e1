// Conformance of answers to the field lists of spec 000 (CONTRACTS §8): each resource is made through the
// API and the answer's keys are compared with the spec's list. Every spec field must be there under the
// spec's exact name; any other key must be on the resource's list of known extras, so a renamed field
// (bookId for book_id) fails here.
import { buildTestApp, signUp, uniqueEmail, type SignedUp, type TestContext } from './helper';
import { multipart } from './conversations-factories';
import { setTier } from './family-factories';

let t: TestContext;
let user: SignedUp;
beforeAll(async () => {
  t = await buildTestApp();
  user = await signUp(t.app);
  await setTier(t.database.sql, user.userId, 'family');
});
afterAll(async () => t.close());

/** One second of 8 kHz mono 16-bit silence as WAV, built here so the test needs no ffmpeg. */
function silentWav(seconds = 1): Buffer {
  const data = Buffer.alloc(8000 * 2 * seconds);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

/** Every spec field present; nothing beyond the spec's fields and the allowed extras. */
function expectSpecKeys(answer: unknown, spec: readonly string[], extras: readonly string[] = []): void {
  expect(answer).toEqual(expect.any(Object));
  const keys = Object.keys(answer as object);
  expect(spec.filter((f) => !keys.includes(f))).toEqual([]);
  expect(keys.filter((k) => !spec.includes(k) && !extras.includes(k))).toEqual([]);
}

const CAMPAIGN = ['id', 'title', 'description', 'recordingCount', 'conversationCount', 'createdAt'] as const;
const RECORDING = [
  'id', 'title', 'transcript', 'ai_summary', 'duration_seconds', 'audio_url', 'waveform_data', 'tags', 'status', 'media_type',
  'original_file_size_bytes', 'transcript_status', 'transcript_source', 'transcript_error', 'transcript_updated_at', 'story_id',
  'trial_session_id', 'created_at',
] as const;
const STORY = ['id', 'title', 'campaignId', 'type', 'content', 'metadata', 'book_id', 'ai_enhanced', 'source_recording_ids', 'source_conversation_ids'] as const;
const STORY_EXTRAS = ['userId', 'authorId', 'wordCount', 'responseType', 'provenance', 'createdAt', 'updatedAt'];
const BOOK = [
  'id', 'title', 'subtitle', 'author_name', 'book_type', 'status', 'story_ids', 'word_count', 'chapters', 'campaign_id', 'family_group_id',
  'template_id', 'cover_template_id', 'interior_template_id', 'trim_size', 'keywords', 'categories', 'language', 'kdp_enrolled', 'kdp_select',
] as const;
const CHAPTER = ['id', 'chapter_number', 'title', 'word_count', 'status'] as const;
const FAMILY_GROUP = ['id', 'name', 'description', 'member_count', 'role', 'settings'] as const;
const INVITATION = ['id', 'email', 'role', 'status', 'expiresAt', 'inviteUrl'] as const;

it('campaigns: list and create answer the API shape', async () => {
  const created = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Shape', description: 'd' } });
  expect(created.statusCode).toBe(201);
  expectSpecKeys(created.json(), CAMPAIGN);
  const list = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers });
  expectSpecKeys(list.json()[0], CAMPAIGN);
});

it('recordings: the upload answer, one recording and the list carry the Recording fields', async () => {
  const body = multipart([
    { name: 'title', value: 'Shape' },
    { name: 'audio', value: silentWav(), filename: 'a.wav', contentType: 'audio/wav' },
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(201);
  // transcript_model: which model made the server transcript (CONTRACTS §4 local recogniser).
  const extras = ['description', 'mime_type', 'campaign_id', 'transcript_model'];
  expectSpecKeys(res.json().recording, RECORDING, extras);
  const one = await t.app.inject({ method: 'GET', url: `/api/recordings/${res.json().recording.id}`, headers: user.headers });
  expectSpecKeys(one.json().recording, RECORDING, extras);
  const list = await t.app.inject({ method: 'GET', url: '/api/recordings', headers: user.headers });
  expectSpecKeys(list.json().recordings[0], RECORDING, extras);
});

it('stories: create, get, update and list carry the names spec 000 writes', async () => {
  const created = await t.app.inject({ method: 'POST', url: '/api/stories', headers: user.headers, payload: { title: 'Shape', content: '<p>a b</p>', ai_enhanced: false } });
  expect(created.statusCode).toBe(201);
  expectSpecKeys(created.json(), STORY, STORY_EXTRAS);
  const id = created.json().id as string;
  expectSpecKeys((await t.app.inject({ method: 'GET', url: `/api/stories/${id}`, headers: user.headers })).json(), STORY, STORY_EXTRAS);
  const put = await t.app.inject({ method: 'PUT', url: `/api/stories/${id}`, headers: user.headers, payload: { title: 'Shape 2', source_recording_ids: [] } });
  expect(put.statusCode).toBe(200);
  expectSpecKeys(put.json(), STORY, STORY_EXTRAS);
  const list = await t.app.inject({ method: 'GET', url: '/api/stories', headers: user.headers });
  expectSpecKeys(list.json().stories[0], STORY, STORY_EXTRAS);
});

it('books and chapters: create and get carry the Book fields and chapters {id, chapter_number, title, word_count, status}', async () => {
  const story = (await t.app.inject({ method: 'POST', url: '/api/stories', headers: user.headers, payload: { title: 'Chapter', content: '<p>one two</p>' } })).json();
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/books',
    headers: user.headers,
    payload: { title: 'Shape', author_name: 'Me', book_type: 'memoir', trim_size: '6x9', selectedStories: [story.id], keywords: [], categories: [], language: 'en', kdp_enrolled: false, kdp_select: false },
  });
  expect(created.statusCode).toBe(201);
  expectSpecKeys(created.json(), ['book', 'message', 'chapters_imported']);
  const extras = ['user_id', 'created_at', 'updated_at'];
  expectSpecKeys(created.json().book, BOOK, extras);
  expectSpecKeys(created.json().book.chapters[0], CHAPTER);
  const got = await t.app.inject({ method: 'GET', url: `/api/books/${created.json().book.id}`, headers: user.headers });
  expectSpecKeys(got.json().book, BOOK, extras);
  const list = await t.app.inject({ method: 'GET', url: '/api/books', headers: user.headers });
  expect(Object.keys(list.json())).toEqual(expect.arrayContaining(['books', 'familyBooks']));
  // The list carries every Book field, story_ids and chapters included (CONTRACTS §8), chapters as metadata.
  expectSpecKeys(list.json().books[0], BOOK, [...extras, 'chapter_count']);
  expectSpecKeys(list.json().books[0].chapters[0], CHAPTER);
});

it('family groups and invitations: create, get and list carry the spec fields; an invitation is {id, email, role, status, expiresAt, inviteUrl}', async () => {
  const created = await t.app.inject({ method: 'POST', url: '/api/family/groups', headers: user.headers, payload: { name: 'Shape family', settings: { a: 1 } } });
  expect(created.statusCode).toBe(201);
  const extras = ['createdBy', 'createdAt'];
  expectSpecKeys(created.json().data, FAMILY_GROUP, extras);
  const groupId = created.json().data.id as string;
  expectSpecKeys((await t.app.inject({ method: 'GET', url: `/api/family/groups/${groupId}`, headers: user.headers })).json().data, FAMILY_GROUP, extras);
  // The list is {id, name, description, member_count, role} in spec 000's endpoint table; settings may come too.
  const list = (await t.app.inject({ method: 'GET', url: '/api/family/groups', headers: user.headers })).json();
  expectSpecKeys(list.data[0], ['id', 'name', 'description', 'member_count', 'role'], ['settings']);

  const invited = await t.app.inject({ method: 'POST', url: '/api/family/invitations', headers: user.headers, payload: { familyGroupId: groupId, email: uniqueEmail('kin'), role: 'family_viewer' } });
  expect(invited.statusCode).toBe(201);
  expectSpecKeys(invited.json(), ['invitation']);
  expectSpecKeys(invited.json().invitation, INVITATION);
});

it('conversations: status is active, then completed', async () => {
  const chat = await t.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: user.headers, payload: { message: 'We lived by the sea.', sessionId: 'shape-session' } });
  expect(chat.statusCode).toBe(200);
  const id = chat.json().conversationId as string;
  const got = await t.app.inject({ method: 'GET', url: `/api/conversations/${id}`, headers: user.headers });
  expect(got.json().conversation.status).toBe('active');
  const done = await t.app.inject({ method: 'POST', url: `/api/conversations/${id}/complete`, headers: user.headers });
  expect(done.json().conversation.status).toBe('completed');
  const [row] = await t.database.sql`select status from conversations where id = ${id}`;
  expect(row).toEqual({ status: 'completed' });
});
