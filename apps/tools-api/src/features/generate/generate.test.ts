// POST /api/{tool}/generate for all sixteen tools with the offline generators: envelope, result shape, SEO
// bounds, share-code prefix, every column of the stored row, the analytics event and the AI usage row.
import { TOOL_ROUTES } from '@story/db';
import { TOOL_DEFINITIONS } from '../../tools';
import { buildTestApp, generate, newIp, newSessionId, SAMPLE_OPTIONS, sessionFor, type TestContext } from '../../test/helper';
import { toolTableName } from '../../shared/tool-param';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe.each(TOOL_ROUTES.map((tool) => [tool]))('%s', (tool) => {
  it('generates offline content, stores every column and records the event and usage', async () => {
    const sessionId = newSessionId();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${tool}/generate`,
      headers: { 'x-session-id': sessionId, 'user-agent': 'jest', 'x-request-id': `req-${tool}` },
      remoteAddress: newIp(),
      payload: { sessionId, options: SAMPLE_OPTIONS[tool] ?? {} },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.meta).toMatchObject({ requestId: `req-${tool}`, processingTime: expect.any(Number), timestamp: expect.any(String), conversionOpportunity: expect.any(Boolean) });
    expect(body.meta.rateLimit).toEqual({ limit: expect.any(Number), remaining: expect.any(Number), resetTime: expect.any(Number) });
    const d = body.data;
    const def = TOOL_DEFINITIONS[tool];
    expect(d.shareCode).toMatch(new RegExp(`^${def.sharePrefix}_[A-Za-z0-9]{8}$`));
    expect(d.title).toBe(d.content.title);
    expect(d.title.length).toBeGreaterThan(3);
    expect(def.llm.contentSchema.safeParse(d.content).success).toBe(true);
    expect(d.seoMetadata.title.length).toBeGreaterThanOrEqual(50);
    expect(d.seoMetadata.title.length).toBeLessThanOrEqual(60);
    expect(d.seoMetadata.description.length).toBeGreaterThanOrEqual(150);
    expect(d.seoMetadata.description.length).toBeLessThanOrEqual(160);
    expect(d.seoMetadata.keywords.length).toBeGreaterThanOrEqual(5);
    expect(d.seoMetadata.keywords.length).toBeLessThanOrEqual(10);
    // Offline output is labelled as what it is: no AI model, no measured confidence, no model tokens.
    expect(d.aiMetadata).toMatchObject({ model: `local-${tool}`, provider: 'local', isAiGenerated: false, confidenceScore: null, tokensUsed: null, fallback: false });
    expect(JSON.stringify(d.content)).not.toMatch(/lorem|ipsum|undefined|\{\w+\}/i);

    const [row] = await t.database.sql`select * from ${t.database.sql(toolTableName(tool))} where id = ${d.id}`;
    expect(row).toMatchObject({
      share_code: d.shareCode,
      session_id: sessionId,
      user_id: null,
      is_public: false,
      is_ai_generated: false,
      ai_confidence: null,
      ai_tokens_used: null,
      ai_model: `local-${tool}`,
      seo_title: d.seoMetadata.title,
      title: d.title,
    });
    for (const col of ['ai_generation_prompt', 'ai_cost_usd', 'generation_time_ms', 'generation_options', 'expires_at', 'category', 'keywords']) expect(row![col]).not.toBeNull();
    const hours = (new Date(row!['expires_at']).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const events = await t.database.sql`select event_type, session_id from tools_analytics where content_id = ${d.id}`;
    expect(events).toEqual([{ event_type: 'generate', session_id: sessionId }]);
    const usage = await t.database.sql`select provider, model, success, tokens_used, input_tokens, output_tokens from tools_ai_usage where content_id = ${d.id}`;
    expect(usage).toEqual([{ provider: 'local', model: `local-${tool}`, success: true, tokens_used: 0, input_tokens: null, output_tokens: null }]);
    const [session] = await t.database.sql`select is_anonymous, expires_at from tools_sessions where id = ${sessionId}`;
    expect(session!['is_anonymous']).toBe(true);
  });
});

it('keeps signed-in content without expiry, owned by the account', async () => {
  const user = await sessionFor(t);
  const { data } = await generate(t, 'story-prompts', { genre: 'fantasy' }, { headers: user.headers });
  const [row] = await t.database.sql`select user_id, expires_at from tools_story_prompts where id = ${data.id}`;
  expect(row).toEqual({ user_id: user.userId, expires_at: null });
  expect(data['expiresAt']).toBeNull();
});

describe('bad input', () => {
  it('requires X-Session-ID and writes nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/plot-twists/generate', payload: { options: { genre: 'x' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'MISSING_SESSION_ID', field: 'X-Session-ID' });
  });

  it('refuses a malformed session id', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/plot-twists/generate', headers: { 'x-session-id': 'sess_abc' }, payload: { options: { genre: 'x' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'X-Session-ID' });
    expect(await t.database.sql`select 1 from tools_sessions where id = 'sess_abc'`).toHaveLength(0);
  });

  it('names the option at fault', async () => {
    const sessionId = newSessionId();
    const cases: [string, Record<string, unknown>, string][] = [
      ['plot-twists', {}, 'options.genre'],
      ['plot-twists', { genre: 'mystery', intensity: 'extreme' }, 'options.intensity'],
      ['plot-twists', { genre: 'mystery', plotElements: 'x' }, 'options.plotElements'],
      ['book-blurb', { bookTitle: 'x'.repeat(201) }, 'options.bookTitle'],
      ['romance-writing-prompts', { trope: 'insta-love' }, 'options.trope'],
      ['character-name-generator', { count: 500 }, 'options.count'],
      ['flashcards', { text: 'too short' }, 'options.text'],
    ];
    for (const [tool, options, field] of cases) {
      const res = await t.app.inject({ method: 'POST', url: `/api/${tool}/generate`, headers: { 'x-session-id': sessionId }, payload: { options } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    // Nothing stored, nothing counted.
    expect(await t.database.sql`select 1 from tools_plot_twists where session_id = ${sessionId}`).toHaveLength(0);
    expect(await t.database.sql`select 1 from tools_rate_limits where key = ${`sess:${sessionId}`}`).toHaveLength(0);
  });

  it('book-blurb takes the book’s title as `title` as well as `bookTitle`; with neither, 400 names options.bookTitle', async () => {
    const byTitle = await generate(t, 'book-blurb', { title: 'The Lantern House', genre: 'mystery' });
    expect(byTitle.data.content['bookTitle']).toBe('The Lantern House');
    expect(byTitle.data.title).toContain('The Lantern House');
    const both = await generate(t, 'book-blurb', { bookTitle: 'Salt and Iron', title: 'ignored' });
    expect(both.data.content['bookTitle']).toBe('Salt and Iron');
    const neither = await t.app.inject({ method: 'POST', url: '/api/book-blurb/generate', headers: { 'x-session-id': newSessionId() }, payload: { options: { genre: 'mystery' } } });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'options.bookTitle' });
    const tooLong = await t.app.inject({ method: 'POST', url: '/api/book-blurb/generate', headers: { 'x-session-id': newSessionId() }, payload: { options: { title: 'x'.repeat(201) } } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatchObject({ field: 'options.bookTitle' });
  });

  it('refuses flashcard text with nothing to learn, and gives the use back', async () => {
    const sessionId = newSessionId();
    const res = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate', headers: { 'x-session-id': sessionId }, payload: { options: { text: '!!! ??? ... --- *** ### !!! ???' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'options.text' });
    const [counter] = await t.database.sql`select count from tools_rate_limits where key = ${`sess:${sessionId}`} and scope = 'daily'`;
    expect(counter!['count']).toBe(0);
  });

  it('answers 404 TOOL_NOT_FOUND for an unknown tool', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/not-a-tool/generate', headers: { 'x-session-id': newSessionId() }, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('TOOL_NOT_FOUND');
  });

  it('refuses a body sessionId that differs from the header', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/plot-twists/generate', headers: { 'x-session-id': newSessionId() }, payload: { sessionId: newSessionId(), options: { genre: 'x' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'sessionId' });
  });

  it('ignores X-User-ID without a token and refuses a bad token', async () => {
    const user = await sessionFor(t);
    const { data } = await generate(t, 'first-line-generator', {}, { headers: { 'x-user-id': user.userId } });
    const [row] = await t.database.sql`select user_id from tools_first_lines where id = ${data.id}`;
    expect(row!['user_id']).toBeNull();
    const res = await t.app.inject({ method: 'POST', url: '/api/first-line-generator/generate', headers: { 'x-session-id': newSessionId(), authorization: 'Bearer nope' }, payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
