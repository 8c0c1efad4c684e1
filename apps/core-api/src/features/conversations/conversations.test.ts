// Conversations against a real PostgreSQL: the interviewer chat (offline catalogue, and a fake model),
// list/get/summarize/complete/stats/tags/analyze/quality, turn audio with real media made by ffmpeg,
// the 502 path with a storage whose put throws, and the 5-minute cap.
import { familyGroups, familyMembers } from '@story/db';
import { createLocalStorage, ProviderError, type LanguageModel, type LlmResult, type ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { buildTestAppWithProviders, makeTone, multipart, newConversation } from '../../test/conversations-factories';
import { withinBudget } from './time-budget';

const ANSWER = 'My grandmother lived in Leeds and she baked bread every Sunday for the whole street.';

const isOneQuestion = (text: string) => text.endsWith('?') && text.split('?').length === 2 && !text.includes('\n') && !/^\s*(?:\d+[.)]|[-*•])\s/.test(text);

let t: TestContext;
let alice: SignedUp;
let bob: SignedUp;
let storage: ObjectStorage;

beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
  if (t.config.storage.driver !== 'local') throw new Error('tests expect local storage');
  storage = createLocalStorage({ root: t.config.storage.root, publicBaseUrl: 'http://127.0.0.1' });
});
afterAll(async () => t.close());

const chat = (who: SignedUp, payload: object) => t.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: who.headers, payload });

describe('POST /api/conversation/chat', () => {
  it('creates a conversation, then continues it, keeping every message and the turn count', async () => {
    const first = await chat(alice, { message: ANSWER, sessionId: 'kitchen-1' });
    expect(first.statusCode).toBe(200);
    const a = first.json();
    expect(a).toMatchObject({ success: true, sessionId: 'kitchen-1', isNewConversation: true, turnCount: 2, model: 'local-interview-question' });
    expect(isOneQuestion(a.response)).toBe(true);
    // The question builds on the answer: it names someone, somewhere or some time the storyteller said.
    expect(a.response).toMatch(/grandmother|Leeds|sunday|street/i);

    const second = await chat(alice, { message: 'Her name was Edna Shaw and she came from Whitby in 1931.', sessionId: 'kitchen-1' });
    expect(second.statusCode).toBe(200);
    const b = second.json();
    expect(b).toMatchObject({ conversationId: a.conversationId, isNewConversation: false, turnCount: 4 });
    expect(isOneQuestion(b.response)).toBe(true);

    const [row] = await t.database.sql`select user_id, session_id, status, turn_count from conversations where id = ${a.conversationId}`;
    expect(row).toEqual({ user_id: alice.userId, session_id: 'kitchen-1', status: 'active', turn_count: 4 });
    const messages = await t.database.sql`select id, role, content, metadata from conversation_messages where conversation_id = ${a.conversationId} order by created_at`;
    expect(messages.map((m) => [m['role'], m['content']])).toEqual([
      ['user', ANSWER],
      ['assistant', a.response],
      ['user', 'Her name was Edna Shaw and she came from Whitby in 1931.'],
      ['assistant', b.response],
    ]);
    expect(messages.map((m) => m['id'])).toEqual([a.userMessageId, a.messageId, b.userMessageId, b.messageId]);
    expect(messages[1]!['metadata']).toMatchObject({ model: 'local-interview-question', provider: 'local' });
  });

  it("keeps another user's session of the same name apart", async () => {
    const mine = (await chat(alice, { message: 'We had a dog called Rex.', sessionId: 'shared-name' })).json();
    const theirs = (await chat(bob, { message: 'I grew up by the sea.', sessionId: 'shared-name' })).json();
    expect(theirs.conversationId).not.toBe(mine.conversationId);
    expect(theirs.isNewConversation).toBe(true);
  });

  it.each([
    ['an empty message', { message: '   ', sessionId: 's' }, 'message'],
    ['no message', { sessionId: 's' }, 'message'],
    ['no sessionId', { message: 'Hello' }, 'sessionId'],
  ])('refuses %s with 400 naming the field and writes nothing', async (_label, payload, field) => {
    const user = await signUp(t.app);
    const res = await chat(user, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(await t.database.sql`select 1 from conversations where user_id = ${user.userId}`).toHaveLength(0);
  });

  it('refuses new turns in a completed conversation with 409', async () => {
    const done = await newConversation(t, alice.userId, { sessionId: 'finished', status: 'completed', turns: ['An answer.'] });
    const res = await chat(alice, { message: 'One more thing.', sessionId: 'finished' });
    expect(res.statusCode).toBe(409);
    const [row] = await t.database.sql`select turn_count, status from conversations where id = ${done.id}`;
    expect(row).toEqual({ turn_count: 1, status: 'completed' });
    expect(await t.database.sql`select 1 from conversation_messages where conversation_id = ${done.id}`).toHaveLength(1);
  });
});

describe('reading conversations', () => {
  let owner: SignedUp;
  let older: Awaited<ReturnType<typeof newConversation>>;
  let newer: Awaited<ReturnType<typeof newConversation>>;

  beforeAll(async () => {
    owner = await signUp(t.app);
    older = await newConversation(t, owner.userId, { turns: ['First answer.', 'A question?', 'Second answer.'], tags: ['war', 'family'] });
    await t.database.sql`update conversations set created_at = now() - interval '1 day' where id = ${older.id}`;
    newer = await newConversation(t, owner.userId, { turns: ['Only answer.'], status: 'completed', tags: ['family'] });
  });

  it("lists only the caller's conversations, newest first, with turn counts and filters", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/conversations', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(2);
    expect(res.json().conversations.map((c: { id: string; turnCount: number }) => [c.id, c.turnCount])).toEqual([
      [newer.id, 1],
      [older.id, 3],
    ]);
    const active = (await t.app.inject({ method: 'GET', url: '/api/conversations?status=active', headers: owner.headers })).json();
    expect(active.conversations.map((c: { id: string }) => c.id)).toEqual([older.id]);
    const tagged = (await t.app.inject({ method: 'GET', url: '/api/conversations?tags=War,family', headers: owner.headers })).json();
    expect(tagged.conversations.map((c: { id: string }) => c.id)).toEqual([older.id]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/conversations?status=archived', headers: owner.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('status');
    const others = (await t.app.inject({ method: 'GET', url: '/api/conversations', headers: bob.headers })).json();
    expect(others.conversations.map((c: { id: string }) => c.id)).not.toContain(older.id);
  });

  it('gets one conversation with its messages in order', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/conversations/${older.id}`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    const { conversation } = res.json();
    expect(conversation).toMatchObject({ id: older.id, status: 'active', turnCount: 3, tags: ['war', 'family'] });
    expect(conversation.messages.map((m: { id: string; role: string; hasAudio: boolean }) => [m.id, m.role, m.hasAudio])).toEqual([
      [older.messageIds[0], 'user', false],
      [older.messageIds[1], 'assistant', false],
      [older.messageIds[2], 'user', false],
    ]);
  });

  it("answers 404 for another user's conversation and for an unknown id, 400 for a malformed one", async () => {
    for (const url of [`/api/conversations/${older.id}`, `/api/conversations/${older.id}/tags`, '/api/conversations/00000000-0000-4000-8000-000000000000']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bob.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Conversation not found' });
    }
    const bad = await t.app.inject({ method: 'GET', url: '/api/conversations/not-a-uuid', headers: owner.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('id');
  });

  it('lets an active family member read, but not change, the conversation', async () => {
    const viewer = await signUp(t.app);
    const [group] = await t.database.db.insert(familyGroups).values({ createdBy: owner.userId, name: 'The Shaws' }).returning();
    await t.database.db.insert(familyMembers).values([
      { familyGroupId: group!.id, userId: owner.userId, role: 'owner' },
      { familyGroupId: group!.id, userId: viewer.userId, role: 'family_viewer' },
    ]);
    const read = await t.app.inject({ method: 'GET', url: `/api/conversations/${older.id}`, headers: viewer.headers });
    expect(read.statusCode).toBe(200);
    const change = await t.app.inject({ method: 'POST', url: `/api/conversations/${older.id}/complete`, headers: viewer.headers });
    expect(change.statusCode).toBe(403);
    const [row] = await t.database.sql`select status from conversations where id = ${older.id}`;
    expect(row!['status']).toBe('active');
    // Not in the viewer's own list: the list is the caller's conversations.
    const list = (await t.app.inject({ method: 'GET', url: '/api/conversations', headers: viewer.headers })).json();
    expect(list.total).toBe(0);
  });

  it("counts the caller's conversations in stats", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/conversations/stats', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      total: 2,
      active: 1,
      completed: 1,
      totalMessages: 4,
      storytellerAnswers: 3,
      totalWords: 6,
      averageTurns: 2,
      topTags: [
        { tag: 'family', count: 2 },
        { tag: 'war', count: 1 },
      ],
    });
  });
});

describe('summarize and complete', () => {
  it('titles and summarises from what the storyteller said, and stores both', async () => {
    const c = await newConversation(t, alice.userId, {
      turns: [
        'In 1952 we moved to Whitby. My father worked at the harbour mending nets.',
        'What was the harbour like?',
        'It smelled of tar and fish. Uncle Harry Wilson took me out on his boat every summer.',
      ],
    });
    const res = await t.app.inject({ method: 'POST', url: `/api/conversations/${c.id}/summarize`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.title.length).toBeGreaterThan(0);
    expect(body.overview).toContain('Whitby');
    // Only the storyteller's words are summarised, never the interviewer's question.
    expect(body.overview).not.toContain('What was the harbour like');
    expect(body.conversation).toMatchObject({ id: c.id, title: body.title, overview: body.overview });
    const [row] = await t.database.sql`select title, overview from conversations where id = ${c.id}`;
    expect(row).toEqual({ title: body.title, overview: body.overview });
  });

  it('refuses to summarise a conversation without answers (409) and hides others (404)', async () => {
    const empty = await newConversation(t, alice.userId);
    expect((await t.app.inject({ method: 'POST', url: `/api/conversations/${empty.id}/summarize`, headers: alice.headers })).statusCode).toBe(409);
    const theirs = await newConversation(t, bob.userId, { turns: ['Something private.'] });
    expect((await t.app.inject({ method: 'POST', url: `/api/conversations/${theirs.id}/summarize`, headers: alice.headers })).statusCode).toBe(404);
    const [row] = await t.database.sql`select title from conversations where id = ${theirs.id}`;
    expect(row!['title']).toBeNull();
  });

  it('completes an active conversation once; completing again is idempotent', async () => {
    const c = await newConversation(t, alice.userId, { turns: ['An answer.'] });
    const first = await t.app.inject({ method: 'POST', url: `/api/conversations/${c.id}/complete`, headers: alice.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, alreadyCompleted: false, conversation: { status: 'completed', completedAt: expect.any(String) } });
    const again = await t.app.inject({ method: 'POST', url: `/api/conversations/${c.id}/complete`, headers: alice.headers });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ alreadyCompleted: true, conversation: { status: 'completed', completedAt: first.json().conversation.completedAt } });
    const [row] = await t.database.sql`select status, completed_at from conversations where id = ${c.id}`;
    expect(row!['status']).toBe('completed');
    expect(new Date(row!['completed_at'] as string).toISOString()).toBe(first.json().conversation.completedAt);

    const theirs = await newConversation(t, bob.userId);
    expect((await t.app.inject({ method: 'POST', url: `/api/conversations/${theirs.id}/complete`, headers: alice.headers })).statusCode).toBe(404);
    const [still] = await t.database.sql`select status from conversations where id = ${theirs.id}`;
    expect(still!['status']).toBe('active');
  });
});

describe('tags', () => {
  it('stores tags trimmed, lower case and unique, and lists the unique tags of the caller', async () => {
    const user = await signUp(t.app);
    const a = await newConversation(t, user.userId);
    const b = await newConversation(t, user.userId, { tags: ['school'] });
    const put = await t.app.inject({ method: 'PUT', url: `/api/conversations/${a.id}/tags`, headers: user.headers, payload: { tags: ['  War Years ', 'family', 'FAMILY'] } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ success: true, conversationId: a.id, tags: ['war years', 'family'] });
    const get = await t.app.inject({ method: 'GET', url: `/api/conversations/${a.id}/tags`, headers: user.headers });
    expect(get.json()).toEqual({ conversationId: a.id, tags: ['war years', 'family'] });
    const all = await t.app.inject({ method: 'GET', url: '/api/conversations/tags', headers: user.headers });
    expect(all.json()).toEqual({ tags: ['family', 'school', 'war years'] });
    expect(b.tags).toEqual(['school']);
  });

  it.each([
    ['an empty tag', { tags: ['ok', '  '] }],
    ['a tag over 40 characters', { tags: ['x'.repeat(41)] }],
    ['a comma in a tag', { tags: ['war,peace'] }],
    ['21 tags', { tags: Array.from({ length: 21 }, (_, i) => `tag${i}`) }],
    ['no list', { tags: 'family' }],
  ])('refuses %s with 400 naming tags, leaving the tags unchanged', async (_label, payload) => {
    const c = await newConversation(t, alice.userId, { tags: ['kept'] });
    const res = await t.app.inject({ method: 'PUT', url: `/api/conversations/${c.id}/tags`, headers: alice.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('tags');
    const [row] = await t.database.sql`select tags from conversations where id = ${c.id}`;
    expect(row!['tags']).toEqual(['kept']);
  });

  it("refuses to tag another user's conversation (404)", async () => {
    const theirs = await newConversation(t, bob.userId, { tags: ['theirs'] });
    const res = await t.app.inject({ method: 'PUT', url: `/api/conversations/${theirs.id}/tags`, headers: alice.headers, payload: { tags: ['mine'] } });
    expect(res.statusCode).toBe(404);
    const [row] = await t.database.sql`select tags from conversations where id = ${theirs.id}`;
    expect(row!['tags']).toEqual(['theirs']);
  });
});

describe('analysis and quality', () => {
  let user: SignedUp;
  let rich: Awaited<ReturnType<typeof newConversation>>;
  let thin: Awaited<ReturnType<typeof newConversation>>;

  beforeAll(async () => {
    user = await signUp(t.app);
    rich = await newConversation(t, user.userId, {
      turns: [
        'I was born in 1938 and we lived on Albion Street in Leeds. My mother worked at the mill and my father was away in the army during the war.',
        'What do you remember about the mill?',
        'The noise! Mrs Patel from next door looked after us. In 1945 we all went to the church to celebrate when my father came home from the army.',
        'How did it feel when he came home?',
        'We danced in the street. My brother Tom played the piano at the party.',
      ],
    });
    thin = await newConversation(t, user.userId, { turns: ['Yes.', 'What was school like?', 'It was fine.', 'What was school like?', 'Fine.'] });
  });

  it('finds people, places, years and themes across the caller’s conversations', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/conversations/analyze', headers: user.headers });
    expect(res.statusCode).toBe(200);
    const { analysis } = res.json();
    expect(analysis).toMatchObject({ source: 'offline', model: 'local-extraction', conversationCount: 2, answerCount: 6 });
    const names = (list: { name: string }[]) => list.map((x) => x.name);
    expect(names(analysis.people)).toEqual(expect.arrayContaining(['Mrs Patel', 'Tom']));
    expect(names(analysis.places)).toEqual(expect.arrayContaining(['Albion Street', 'Leeds']));
    expect(names(analysis.years)).toEqual(expect.arrayContaining(['1938', '1945']));
    expect(names(analysis.themes)).toEqual(expect.arrayContaining(['family', 'war and service', 'work']));
    expect(analysis.years.find((y: { name: string }) => y.name === '1945')).toEqual({ name: '1945', mentions: 1, conversations: 1 });
    // Nothing invented: every name found is in the text.
    const said = (await t.database.sql`select string_agg(content, ' ') as text from conversation_messages where role = 'user' and conversation_id in (${rich.id}, ${thin.id})`)[0]!['text'] as string;
    for (const p of [...analysis.people, ...analysis.places]) expect(said).toContain(p.name);

    const other = await t.app.inject({ method: 'POST', url: '/api/conversations/analyze', headers: alice.headers, payload: { conversationIds: [rich.id] } });
    expect(other.statusCode).toBe(404);
  });

  it('analyses one conversation and keeps the result with it', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/conversations/${rich.id}/analyze`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().analysis).toMatchObject({ conversationCount: 1, answerCount: 3 });
    const [row] = await t.database.sql`select analysis from conversations where id = ${rich.id}`;
    expect((row!['analysis'] as { places: { name: string }[] }).places.map((p) => p.name)).toContain('Leeds');
    expect(res.json().conversation.analysis).toEqual(row!['analysis']);
  });

  it('measures depth: a rich interview scores above a thin one, and the metrics are stored', async () => {
    const richRes = await t.app.inject({ method: 'POST', url: `/api/conversations/${rich.id}/analyze-quality`, headers: user.headers });
    expect(richRes.statusCode).toBe(200);
    const q = richRes.json().quality;
    expect(q).toMatchObject({ answerCount: 3, questionCount: 2, repeatedQuestions: 0, questionVariety: 1 });
    expect(q.answers[0]).toMatchObject({ messageId: rich.messageIds[0], names: 0, dates: 1, places: 2 });
    expect(q.specificDetailsPerAnswer).toBeGreaterThan(1);

    const thinRes = await t.app.inject({ method: 'POST', url: '/api/conversation/quality-assessment', headers: user.headers, payload: { sessionId: thin.sessionId } });
    expect(thinRes.statusCode).toBe(200);
    const tq = thinRes.json().quality;
    expect(tq).toMatchObject({ answerCount: 3, repeatedQuestions: 1, shortAnswers: 3, specificDetailsPerAnswer: 0, level: 'shallow' });
    expect(tq.suggestions.length).toBeGreaterThan(0);
    expect(q.depthScore).toBeGreaterThan(tq.depthScore);

    const rows = await t.database.sql`select id, quality_metrics from conversations where id in (${rich.id}, ${thin.id})`;
    const stored = Object.fromEntries(rows.map((r) => [r['id'], r['quality_metrics']]));
    expect(stored[rich.id]).toMatchObject({ depthScore: q.depthScore, answerCount: 3 });
    expect(stored[thin.id]).toMatchObject({ depthScore: tq.depthScore, repeatedQuestions: 1 });
  });

  it('asks for conversationId or sessionId (400), and hides other users’ conversations (404)', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/conversation/quality-assessment', headers: user.headers, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toContain('conversationId');
    const theirs = await t.app.inject({ method: 'POST', url: '/api/conversation/quality-assessment', headers: alice.headers, payload: { conversationId: rich.id } });
    expect(theirs.statusCode).toBe(404);
    const bySession = await t.app.inject({ method: 'POST', url: '/api/conversation/quality-assessment', headers: alice.headers, payload: { sessionId: thin.sessionId } });
    expect(bySession.statusCode).toBe(404);
  });
});

describe('POST /api/conversations/upload-audio', () => {
  const upload = (who: SignedUp, parts: Parameters<typeof multipart>[0], app = t.app) => {
    const body = multipart(parts);
    return app.inject({ method: 'POST', url: '/api/conversations/upload-audio', headers: { ...who.headers, ...body.headers }, payload: body.payload });
  };

  it('stores a real WAV turn under a server key, probing its length, as a new answer', async () => {
    const c = await newConversation(t, alice.userId, { turns: ['First.', 'Tell me more?'] });
    const wav = await makeTone(2, 'wav');
    const res = await upload(alice, [
      { name: 'conversationId', value: c.id },
      { name: 'transcript', value: 'We went to the seaside.' },
      { name: 'audio', value: wav, filename: '../../etc/passwd.wav', contentType: 'audio/wav' },
    ]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, conversationId: c.id, durationSeconds: 2, size: wav.length, mimeType: 'audio/wav', turnCount: 3, totalDurationSeconds: 2 });
    expect(body.audioKey).toMatch(new RegExp(`^conversations/${alice.userId}/${c.id}/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.wav$`));
    expect(await storage.head(body.audioKey)).toEqual(expect.objectContaining({ exists: true, size: wav.length }));
    const [message] = await t.database.sql`select role, content, audio_storage_key, duration_seconds from conversation_messages where id = ${body.messageId}`;
    expect(message).toEqual({ role: 'user', content: 'We went to the seaside.', audio_storage_key: body.audioKey, duration_seconds: 2 });
  });

  it('measures a browser-style WebM without a duration in its container by decoding it', async () => {
    const c = await newConversation(t, alice.userId);
    const webm = await makeTone(3, 'webm');
    const res = await upload(alice, [
      { name: 'conversationId', value: c.id },
      { name: 'audio', value: webm, filename: 'turn.webm', contentType: 'audio/webm;codecs=opus' },
    ]);
    expect(res.statusCode).toBe(201);
    // The bytes say video/webm; the client's audio/webm names the same container and is kept.
    expect(res.json()).toMatchObject({ durationSeconds: 3, mimeType: 'audio/webm' });
    expect(res.json().audioKey).toMatch(/\.webm$/);
    const [message] = await t.database.sql`select content, metadata from conversation_messages where id = ${res.json().messageId}`;
    expect(message).toEqual({ content: '', metadata: { audioType: 'audio/webm', audioBytes: webm.length, transcriptPending: true } });
  });

  it('attaches an MP3 to an existing turn, replacing its earlier audio', async () => {
    const c = await newConversation(t, alice.userId, { turns: ['My answer.'] });
    const first = await upload(alice, [
      { name: 'conversationId', value: c.id },
      { name: 'messageId', value: c.messageIds[0]! },
      { name: 'duration', value: '3' },
      { name: 'audio', value: await makeTone(3, 'mp3'), filename: 'a.mp3', contentType: 'audio/mpeg' },
    ]);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ messageId: c.messageIds[0], durationSeconds: 3, turnCount: 1, totalDurationSeconds: 3 });
    const second = await upload(alice, [
      { name: 'conversationId', value: c.id },
      { name: 'messageId', value: c.messageIds[0]! },
      { name: 'audio', value: await makeTone(1, 'mp3'), filename: 'b.mp3', contentType: 'audio/mpeg' },
    ]);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ durationSeconds: 1, turnCount: 1, totalDurationSeconds: 1 });
    expect(await storage.head(first.json().audioKey)).toEqual({ exists: false });
    expect(await storage.head(second.json().audioKey)).toMatchObject({ exists: true });
  });

  it('refuses a turn over 5 minutes, sent or probed, with 400 naming duration and stores nothing', async () => {
    const c = await newConversation(t, alice.userId);
    const before = await storage.list(`conversations/${alice.userId}/${c.id}`);
    const sent = await upload(alice, [
      { name: 'conversationId', value: c.id },
      { name: 'duration', value: '301' },
      { name: 'audio', value: await makeTone(1, 'wav'), filename: 'a.wav', contentType: 'audio/wav' },
    ]);
    expect(sent.statusCode).toBe(400);
    expect(sent.json().error).toContain('duration');
    const probed = await upload(alice, [
      { name: 'conversationId', value: c.id },
      { name: 'audio', value: await makeTone(301, 'wav'), filename: 'long.wav', contentType: 'audio/wav' },
    ]);
    expect(probed.statusCode).toBe(400);
    expect(probed.json().error).toMatch(/duration.*5 minutes.*5:01/);
    expect(before.objects).toEqual([]);
    expect((await storage.list(`conversations/${alice.userId}/${c.id}`)).objects).toEqual([]);
    const [row] = await t.database.sql`select turn_count, total_duration_seconds from conversations where id = ${c.id}`;
    expect(row).toEqual({ turn_count: 0, total_duration_seconds: 0 });
  });

  it.each([
    ['no conversationId', [{ name: 'duration', value: '1' }], 'conversationId'],
    ['a malformed messageId', [{ name: 'messageId', value: 'x' }], 'messageId'],
    ['a negative duration', [{ name: 'duration', value: '-4' }], 'duration'],
    ['no file', [], 'audio'],
    ['bytes that are not audio', [{ name: 'audio', value: Buffer.from('just some text, not audio'), filename: 'a.mp3', contentType: 'audio/mpeg' }], 'audio'],
  ])('refuses %s with 400 naming the field', async (_label, extra, field) => {
    const c = await newConversation(t, alice.userId);
    const parts = (extra as Parameters<typeof multipart>[0]).slice();
    if (field !== 'conversationId') parts.unshift({ name: 'conversationId', value: c.id });
    if (field !== 'audio' && !parts.some((p) => p.name === 'audio')) parts.push({ name: 'audio', value: await makeTone(1, 'wav'), filename: 'a.wav', contentType: 'audio/wav' });
    const res = await upload(alice, parts);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(await t.database.sql`select 1 from conversation_messages where conversation_id = ${c.id}`).toHaveLength(0);
  });

  it("answers 404 for another user's conversation or a message of another conversation, storing nothing", async () => {
    const theirs = await newConversation(t, bob.userId, { turns: ['Theirs.'] });
    const mine = await newConversation(t, alice.userId, { turns: ['Mine.'] });
    const wav = await makeTone(1, 'wav');
    const other = await upload(alice, [{ name: 'conversationId', value: theirs.id }, { name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Conversation not found');
    const wrongMessage = await upload(alice, [
      { name: 'conversationId', value: mine.id },
      { name: 'messageId', value: theirs.messageIds[0]! },
      { name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' },
    ]);
    expect(wrongMessage.statusCode).toBe(404);
    expect((await storage.list(`conversations/${bob.userId}/${theirs.id}`)).objects).toEqual([]);
    expect((await storage.list(`conversations/${alice.userId}/${mine.id}`)).objects).toEqual([]);
  });
});

describe('POST /api/conversation/tts', () => {
  it("streams the interviewer's question as MP3 with the speech headers", async () => {
    const text = 'What did your kitchen smell like?';
    const res = await t.app.inject({ method: 'POST', url: '/api/conversation/tts', headers: alice.headers, payload: { text } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['x-provider']).toBe('local');
    expect(res.headers['x-character-count']).toBe(String(text.length));
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true);
  });

  it('refuses empty text and an unknown voice with 400 naming the field', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/api/conversation/tts', headers: alice.headers, payload: { text: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toContain('text');
    const voice = await t.app.inject({ method: 'POST', url: '/api/conversation/tts', headers: alice.headers, payload: { text: 'Hi?', voiceId: 'klingon' } });
    expect(voice.statusCode).toBe(400);
    expect(voice.json().error).toContain('voiceId');
  });
});

describe('with injected providers: a model and a storage that fail', () => {
  let f: TestContext;
  let user: SignedUp;
  let answer: (request: { messages: { role: string; content: string }[]; system?: string }) => string | Error;
  const seen: { system?: string; messages: { role: string; content: string }[] }[] = [];

  beforeAll(async () => {
    f = await buildTestAppWithProviders((base) => {
      const llm: LanguageModel = {
        provider: 'openai',
        model: 'fake-model',
        async complete(request) {
          seen.push({ system: request.system, messages: request.messages });
          const out = answer(request);
          if (out instanceof Error) throw out;
          const result: LlmResult = { text: out, model: 'fake-model', provider: 'openai', usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 0, latencyMs: 1 };
          return result;
        },
        async completeJson() {
          throw new ProviderError('unavailable', 'openai', 'down');
        },
      };
      const storage: ObjectStorage = {
        ...base.storage,
        put: async () => {
          throw new ProviderError('unavailable', 's3', 'connect ECONNREFUSED 10.0.0.1:9000');
        },
      };
      return { llm, storage };
    });
    user = await signUp(f.app);
  });
  afterAll(async () => f.close());

  it('keeps a model to one question, with the interviewer prompt and the turns so far', async () => {
    answer = () => '1. What was her name?\n2. Where did she live?\n3. What did she cook?';
    const first = await f.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: user.headers, payload: { message: ANSWER, sessionId: 'm1' } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ response: 'What was her name?', model: 'fake-model' });
    expect(seen.at(-1)!.system).toMatch(/exactly ONE open question/);
    expect(seen.at(-1)!.messages).toEqual([{ role: 'user', content: ANSWER }]);

    answer = () => 'Thank you for sharing that lovely memory.';
    const second = await f.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: user.headers, payload: { message: 'Her name was Edna.', sessionId: 'm1' } });
    expect(second.statusCode).toBe(200);
    // No question in the model's answer: the offline catalogue asks instead, and the message says so.
    expect(isOneQuestion(second.json().response)).toBe(true);
    expect(second.json().model).toBe('local-interview-question');
    expect(seen.at(-1)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('keeps the answer when the model fails, answering 429 for its rate limit', async () => {
    answer = () => new ProviderError('quota', 'openai', 'RAW rate limit text from vendor');
    const res = await f.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: user.headers, payload: { message: 'We lived by the canal.', sessionId: 'm2' } });
    expect(res.statusCode).toBe(429);
    expect(res.body).not.toContain('RAW rate limit');
    const { conversationId, userMessageId } = res.json();
    const messages = await f.database.sql`select id, role, content from conversation_messages where conversation_id = ${conversationId}`;
    expect(messages).toEqual([{ id: userMessageId, role: 'user', content: 'We lived by the canal.' }]);
    const [row] = await f.database.sql`select turn_count from conversations where id = ${conversationId}`;
    expect(row!['turn_count']).toBe(1);
  });

  it('falls back to the offline analysis when the model fails', async () => {
    await f.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: user.headers, payload: { message: 'In 1960 we moved to Bristol.', sessionId: 'm3' } });
    const res = await f.app.inject({ method: 'POST', url: '/api/conversations/analyze', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().analysis.source).toBe('offline');
    expect(res.json().analysis.places.map((p: { name: string }) => p.name)).toContain('Bristol');
  });

  it('answers 502 when the storage put throws, writing no message', async () => {
    const c = await newConversation(f, user.userId, { turns: ['An answer.'] });
    const body = multipart([
      { name: 'conversationId', value: c.id },
      { name: 'audio', value: await makeTone(1, 'wav'), filename: 'a.wav', contentType: 'audio/wav' },
    ]);
    const res = await f.app.inject({ method: 'POST', url: '/api/conversations/upload-audio', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatch(/storage failed; nothing was saved/);
    expect(res.body).not.toContain('ECONNREFUSED');
    expect(await f.database.sql`select 1 from conversation_messages where conversation_id = ${c.id}`).toHaveLength(1);
    const [row] = await f.database.sql`select turn_count, total_duration_seconds from conversations where id = ${c.id}`;
    expect(row).toEqual({ turn_count: 1, total_duration_seconds: 0 });
  });
});

describe('withinBudget', () => {
  it('stops work past its budget with a timeout error and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const err = await withinBudget(50, 'The audio upload', (s) => {
      signal = s;
      return new Promise((resolve) => setTimeout(resolve, 2000));
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'timeout', message: expect.stringContaining('The audio upload took longer than') });
    expect(signal!.aborted).toBe(true);
    await expect(withinBudget(1000, 'quick', async () => 'done')).resolves.toBe('done');
  });
});
