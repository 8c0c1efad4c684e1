// Conversations against a real PostgreSQL, part one: the interviewer chat (offline catalogue, and a fake
// model), list/get/summarize/complete/stats/tags/analyze/quality. Part two (conversations-audio.test.ts):
// turn audio, speech, failing providers, the time budget.
import { familyGroups, familyMembers } from '@story/db';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newConversation } from '../../test/conversations-factories';

const ANSWER = 'My grandmother lived in Leeds and she baked bread every Sunday for the whole street.';

const isOneQuestion = (text: string) => text.endsWith('?') && text.split('?').length === 2 && !text.includes('\n') && !/^\s*(?:\d+[.)]|[-*•])\s/.test(text);

let t: TestContext;
let alice: SignedUp;
let bob: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
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
