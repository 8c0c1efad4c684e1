// POST /api/stories/convert end to end: the gate, the offline writer, the faithfulness check with a model
// that invents, provenance, the one-transaction insert and book attachment, on real PostgreSQL.
import type { z } from 'zod';
import type { LanguageModel, LlmRequest } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { buildTestAppWithProviders, newConversation } from '../../test/conversations-factories';

const MEMORY =
  'um so my father Antonio he he bought the farm near Salerno in 1952, and uh we had three cows and a donkey called Bruno. ' +
  'every morning I walked two miles to the school in the village, you know, and my sister Lucia came with me. ' +
  'the teacher was very strict, she made us copy the same letters again and again until our hands were sore. ' +
  'in the winter the road was all mud and we came home with our shoes ruined and my mother was so angry. ' +
  'when I was twelve we moved to Naples because my father found work at the port, loading ships from morning till night. ' +
  'I missed the farm terribly, the smell of the hay, the sound of Bruno in the morning, and the big fig tree behind the house ' +
  'where Lucia and I used to hide from our chores on long summer afternoons. I still dream about that farm.';

async function newRecording(t: TestContext, userId: string, transcript: string, extra: { campaignId?: string; words?: unknown; source?: string } = {}) {
  const [row] = await t.database.sql`
    insert into recordings (user_id, campaign_id, title, transcript, storage_key, transcript_status, transcript_source, transcript_words)
    values (${userId}, ${extra.campaignId ?? null}, 'The farm', ${transcript}, ${`recordings/${userId}/x/${Math.random()}.wav`}, 'done',
            ${extra.source ?? 'browser'}, ${extra.words ? JSON.stringify(extra.words) : null}::jsonb)
    returning id`;
  return row!['id'] as string;
}

const convert = (t: TestContext, user: SignedUp, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/stories/convert', headers: user.headers, payload });

describe('story conversion (offline writer)', () => {
  let t: TestContext;
  let user: SignedUp;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await signUp(t.app);
  });
  afterAll(() => t.close());

  it('creates a faithful story from a ready recording, with provenance, in one transaction; a second conversion is 409', async () => {
    const words = MEMORY.split(' ').map((w, i) => ({ word: w.replace(/[.,]/g, ''), start: i * 0.5, end: i * 0.5 + 0.4, confidence: 0.9 }));
    const recordingId = await newRecording(t, user.userId, MEMORY, { words, source: 'google' });
    const res = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'The farm near Salerno' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.readiness).toBe('ready');
    expect(body.faithfulness).toMatchObject({ passed: true, unsupportedClaims: [], regenerated: false });
    const { story } = body;
    expect(story).toMatchObject({ title: 'The farm near Salerno', ai_enhanced: false, source_recording_ids: [recordingId], source_conversation_ids: [] });
    expect(story.content).toMatch(/^<p>So my father Antonio he bought the farm near Salerno in 1952, and we had/);
    expect(story.content).not.toMatch(/\bum\b|\buh\b|he he|you know/);
    for (const fact of ['Salerno', '1952', 'Bruno', 'Lucia', 'Naples']) expect(story.content).toContain(fact);
    const paragraphs = story.provenance.paragraphs;
    expect(paragraphs.length).toBeGreaterThan(1);
    expect(paragraphs[0]).toMatchObject({ paragraph: 0, sourceStart: expect.any(Number), faithful: true, startSeconds: expect.any(Number) });
    expect(paragraphs[0].sourceExcerpt).toContain('Antonio');
    expect(paragraphs[1].sourceStart).toBeGreaterThan(paragraphs[0].sourceStart);
    expect(paragraphs[1].startSeconds).toBeGreaterThan(paragraphs[0].startSeconds);

    // GET /api/stories/:id serves the same provenance, so the reader can jump to the recording.
    const read = await t.app.inject({ method: 'GET', url: `/api/stories/${story.id}`, headers: user.headers });
    expect(read.json().provenance.paragraphs).toEqual(paragraphs);
    const [rec] = await t.database.sql`select story_id from recordings where id = ${recordingId}`;
    expect(rec!['story_id']).toBe(story.id);
    const [conv] = await t.database.sql`select readiness, source_word_count, ai_model, faithfulness from story_conversions where story_id = ${story.id}`;
    expect(conv).toMatchObject({ readiness: 'ready', ai_model: 'local-clean-transcript' });
    expect(conv!['source_word_count']).toBeGreaterThanOrEqual(150);

    const again = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().storyId).toBe(story.id);
  });

  it('rejects fewer than 60 words with a plain reason and writes nothing', async () => {
    const recordingId = await newRecording(t, user.userId, 'We had a farm. It was nice. My father liked it.');
    const res = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Short' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ readiness: 'rejected', wordCount: 11 });
    expect(res.json().error).toMatch(/at least 60 are needed/);
    expect(await t.database.sql`select 1 from stories where ${recordingId} = any(source_recording_ids)`).toHaveLength(0);
  });

  it('offers a shorter story for 60-149 words and creates it only when accepted', async () => {
    const text = MEMORY.split(' ').slice(0, 90).join(' ');
    const recordingId = await newRecording(t, user.userId, text);
    const refused = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Shorter' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ readiness: 'partial', wordCount: 90 });
    const accepted = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Shorter', acceptPartial: true });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().readiness).toBe('partial');
  });

  it('converts a conversation from the storyteller turns, linking paragraphs to messages', async () => {
    const half = Math.floor(MEMORY.length / 2);
    const cut = MEMORY.indexOf('. ', half) + 1;
    const conv = await newConversation(t, user.userId, { turns: [MEMORY.slice(0, cut), 'What happened in Naples?', MEMORY.slice(cut + 1)] });
    const res = await convert(t, user, { sourceType: 'conversation', sourceId: conv.id, title: 'From our chat' });
    expect(res.statusCode).toBe(201);
    const { story } = res.json();
    expect(story.source_conversation_ids).toEqual([conv.id]);
    expect(story.content).not.toContain('What happened in Naples?');
    const messageIds = story.provenance.paragraphs.flatMap((p: { messageIds: string[] }) => p.messageIds);
    expect(new Set(messageIds)).toEqual(new Set([conv.messageIds[0], conv.messageIds[2]]));
    expect((await convert(t, user, { sourceType: 'conversation', sourceId: conv.id, title: 'Twice' })).statusCode).toBe(409);
  });

  it("answers 404 for someone else's source or book, and writes nothing", async () => {
    const other = await signUp(t.app);
    const theirs = await newRecording(t, other.userId, MEMORY);
    expect((await convert(t, user, { sourceType: 'recording', sourceId: theirs, title: 'Not mine' })).statusCode).toBe(404);
    const [book] = await t.database.sql`insert into books (user_id, title) values (${other.userId}, 'Their book') returning id`;
    const mine = await newRecording(t, user.userId, MEMORY);
    const res = await convert(t, user, { sourceType: 'recording', sourceId: mine, title: 'Into their book', bookId: book!['id'] });
    expect(res.statusCode).toBe(404);
    expect(await t.database.sql`select 1 from stories where ${mine} = any(source_recording_ids)`).toHaveLength(0);
  });

  it('attaches the story to the book asked for, as its next chapter', async () => {
    const [book] = await t.database.sql`insert into books (user_id, title) values (${user.userId}, 'Our family') returning id`;
    const recordingId = await newRecording(t, user.userId, MEMORY);
    const res = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Chapter one', bookId: book!['id'] });
    expect(res.statusCode).toBe(201);
    expect(res.json().story.book_id).toBe(book!['id']);
    const chapters = await t.database.sql`select story_id, chapter_number from book_chapters where book_id = ${book!['id']}`;
    expect(chapters).toEqual([{ story_id: res.json().story.id, chapter_number: 1 }]);
  });

  it('validates the body (title, sourceType, sourceId)', async () => {
    for (const payload of [
      { sourceType: 'video', sourceId: crypto.randomUUID(), title: 'x' },
      { sourceType: 'recording', sourceId: 'nope', title: 'x' },
      { sourceType: 'recording', sourceId: crypto.randomUUID(), title: 'x'.repeat(201) },
    ]) {
      expect((await convert(t, user, payload)).statusCode).toBe(400);
    }
  });
});

/** A model that writes from the transcript but adds `invent` to its first `times` answers. */
function inventingModel(invent: string, times: number): LanguageModel & { writes: number } {
  const model = {
    provider: 'openai' as const,
    model: 'fake-gpt',
    writes: 0,
    async complete() {
      throw new Error('unused');
    },
    async completeJson<T>(request: LlmRequest, schema: z.ZodType<T>) {
      const base = { model: 'fake-gpt', provider: 'openai' as const, usage: { inputTokens: 100, outputTokens: 50 }, costUsd: 0.001, latencyMs: 1, text: '' };
      let data: unknown;
      if (request.task === 'readiness-assessment') data = { ready: true, reasons: ['people, places and times'] };
      else if (request.task === 'faithfulness-judge') data = { faithful: true, unsupportedClaims: [] };
      else {
        model.writes++;
        const transcript = String(request.input?.['transcript']);
        const first = `My father Antonio bought the farm near Salerno in 1952.${model.writes <= times ? ` ${invent}` : ''}`;
        data = { paragraphs: [first, transcript.slice(transcript.indexOf('every morning'))] };
      }
      return { ...base, data: schema.parse(data) };
    },
  };
  return model;
}

describe('story conversion (model writer)', () => {
  it('rewrites once when the model invents, and keeps the second, faithful version', async () => {
    const llm = inventingModel('We later moved to Rome in 1960.', 1);
    const t = await buildTestAppWithProviders(() => ({ llm }));
    try {
      const user = await signUp(t.app);
      const recordingId = await newRecording(t, user.userId, MEMORY);
      const res = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Rewritten' });
      expect(res.statusCode).toBe(201);
      expect(res.json().faithfulness).toMatchObject({ passed: true, regenerated: true, checkedBy: ['claims', 'judge:fake-gpt'] });
      expect(res.json().story).toMatchObject({ ai_enhanced: true });
      expect(res.json().story.content).not.toContain('Rome');
      expect(llm.writes).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('refuses with the unsupported claims listed when the rewrite still invents, and writes nothing', async () => {
    const llm = inventingModel('Uncle Vittorio visited us in 1960.', 2);
    const t = await buildTestAppWithProviders(() => ({ llm }));
    try {
      const user = await signUp(t.app);
      const recordingId = await newRecording(t, user.userId, MEMORY);
      const res = await convert(t, user, { sourceType: 'recording', sourceId: recordingId, title: 'Invented' });
      expect(res.statusCode).toBe(422);
      expect(res.json().unsupportedClaims).toEqual(expect.arrayContaining(['Uncle Vittorio', '1960']));
      expect(await t.database.sql`select 1 from stories`).toHaveLength(0);
      expect(await t.database.sql`select story_id from recordings where id = ${recordingId}`).toEqual([{ story_id: null }]);
    } finally {
      await t.close();
    }
  });
});
