// Conversations against a real PostgreSQL, part two: turn audio with real media made by ffmpeg (the
// 502 path with a storage whose put throws, and the 5-minute cap), the interviewer's speech, injected
// providers that fail, and the time budget. Part one (conversations.test.ts): chat, reading, summaries,
// tags, analysis.
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
    // No transcript sent: the server writes the turn down (the local recogniser here; recordings.local-stt.test.ts runs it).
    expect(message).toEqual({ content: '', metadata: { audioType: 'audio/webm', audioBytes: webm.length, transcriptPending: true, transcriptStatus: 'pending' } });
    const [job] = await t.database.sql`select kind, status, payload from jobs where payload->>'messageId' = ${res.json().messageId}`;
    expect(job).toEqual({ kind: 'conversation.transcribe-turn', status: 'queued', payload: { messageId: res.json().messageId, audioKey: res.json().audioKey } });
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
