// POST /api/:tool/:id/export through the real app: headers, real readers on the bodies, counting, access.
import { buildTestApp, generate, sessionFor, type TestContext } from '../../test/helper';
import { newContent, newResponse, newSession } from '../../test/content-factory';
import { parseCsv, readPdf, readZipEntry } from '../../test/export-readers';
import { cardGuid } from './export.renderers';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const exportOf = (tool: string, id: string, payload: Record<string, unknown>, sessionId = newSession(), headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/${tool}/${id}/export`, headers: { 'x-session-id': sessionId, ...headers }, payload });

const deckContent = {
  title: 'Tide pools',
  deckName: 'Tide pools',
  cardCount: 2,
  difficulty: 'medium',
  cards: [
    { id: 'c1', front: 'What is a tide pool?', back: 'A rocky pool left by the ebbing tide.', kind: 'definition' },
    { id: 'c2', front: 'Anemones sting with _____', back: 'nematocysts', kind: 'cloze' },
  ],
};

const counters = async (table: string, id: string) => (await t.database.sql`select export_count from ${t.database.sql(table)} where id = ${id}`)[0]!['export_count'];

describe('export', () => {
  it('exports a PDF whose Polish, Greek, Vietnamese and Chinese names read back exactly', async () => {
    const owner = newSession();
    const names = ['Zażółć gęślą jaźń', 'Łódź', 'Καλημέρα', 'Nguyễn Thị Minh Khai', '王秀英'];
    const item = await newContent(t.database.sql, 'plot-twists', { sessionId: owner, title: 'Grandmother 王秀英', content: { title: 'Grandmother 王秀英', twist: 'She was born in Łódź.', clues: names } });
    const res = await exportOf('plot-twists', item.id, { format: 'pdf' }, owner);
    expect(res.statusCode).toBe(200);
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.title).toBe('Grandmother 王秀英');
    expect(pdf.text).toContain('Grandmother 王秀英');
    expect(pdf.text).toContain('She was born in Łódź.');
    for (const name of names) expect(pdf.text).toContain(name);
    expect(res.rawPayload.length).toBeLessThan(150_000);
  });

  it('refuses a PDF of text no bundled font draws with 422 naming the characters, counts nothing, and other formats still work', async () => {
    const owner = newSession();
    const item = await newContent(t.database.sql, 'plot-twists', { sessionId: owner, title: 'ยายของฉัน', content: { title: 'ยายของฉัน', twist: 'Grandmother from Chiang Mai.' } });
    const res = await exportOf('plot-twists', item.id, { format: 'pdf' }, owner);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({ success: false, error: { code: 'INVALID_INPUT', field: 'format' } });
    expect(body.error.message).toContain('U+0E22 THAI CHARACTER YO YAK');
    expect(body.error.details.missingCharacters).toContainEqual({ codePoint: 'U+0E22', name: 'THAI CHARACTER YO YAK', char: 'ย' });
    expect(body.error.details.otherFormats).toEqual(['json', 'csv', 'html', 'docx']);
    expect(await counters('tools_plot_twists', item.id)).toBe(0);
    expect((await exportOf('plot-twists', item.id, { format: 'html' }, owner)).statusCode).toBe(200);
  });

  it('says offline content was made by the offline generator and never calls it AI-generated, in every format', async () => {
    const { sessionId, data } = await generate(t, 'plot-twists', { genre: 'mystery' });
    const get = (format: string) => exportOf('plot-twists', data.id, { format }, sessionId);

    const json = (await get('json')).json();
    expect(json.metadata).toMatchObject({ aiModel: 'local-plot-twists', isAiGenerated: false, madeBy: 'the offline generator (local-plot-twists), no AI model' });
    const rows = parseCsv((await get('csv')).payload);
    expect(rows).toContainEqual(['AI Generated', 'no']);
    expect(rows).toContainEqual(['AI Model', '']);
    expect(rows).toContainEqual(['Made By', 'the offline generator (local-plot-twists), no AI model']);

    const html = (await get('html')).payload;
    const pdf = (await readPdf((await get('pdf')).rawPayload)).text;
    const docx = await readZipEntry((await get('docx')).rawPayload, 'word/document.xml');
    for (const text of [html, pdf, docx]) {
      expect(text).toContain('the offline generator (local-plot-twists), no AI model');
      expect(text).not.toMatch(/AI[- ]generated|generated with|AI model local/i);
    }
  });

  it('answers each format with its type, attachment name and length, counts it and records an event', async () => {
    const owner = newSession();
    const item = await newContent(t.database.sql, 'plot-twists', {
      sessionId: owner,
      title: 'The quiet heir',
      content: { title: 'The quiet heir', twist: 'The butler is the heir.', clues: ['=cmd|" /C calc"!A0', 'a locked study'] },
    });
    await newResponse(t.database.sql, item, { title: 'My take', content: 'I never saw it coming.', isPublic: true });
    const expected = {
      json: 'application/json; charset=utf-8',
      csv: 'text/csv; charset=utf-8',
      pdf: 'application/pdf',
      html: 'text/html; charset=utf-8',
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    } as const;
    for (const [format, type] of Object.entries(expected)) {
      const res = await exportOf('plot-twists', item.id, { format, options: { includeResponses: true } }, owner);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="content-export.${format}"`);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length).toBeGreaterThan(100);
    }

    const json = (await exportOf('plot-twists', item.id, { format: 'json', options: { includeResponses: true } }, owner)).json();
    expect(json).toMatchObject({
      metadata: { tool: 'plot-twists', title: 'The quiet heir', shareCode: item.share_code, createdAt: expect.any(String) },
      content: { twist: 'The butler is the heir.' },
      responses: [expect.objectContaining({ title: 'My take', content: 'I never saw it coming.' })],
      analytics: { viewCount: 0, shareCount: 0, responseCount: 1 },
    });

    const csv = parseCsv((await exportOf('plot-twists', item.id, { format: 'csv', options: { includeMetadata: false } }, owner)).payload);
    expect(csv.slice(0, 5)).toEqual([
      ['Field', 'Value'],
      ['Title', 'The quiet heir'],
      ['Created At', expect.stringMatching(/^\d{4}-\d\d-\d\dT/)],
      ['Share Code', item.share_code],
      ['View Count', '0'],
    ]);
    // The plot-twist tool's own rows do not fit this hand-made content, so it is flattened generically.
    expect(csv).toContainEqual(['clues.0', `'=cmd|" /C calc"!A0`]);

    const pdf = await readPdf((await exportOf('plot-twists', item.id, { format: 'pdf', options: { pageSize: 'letter', theme: 'dark', fontSize: 14 } }, owner)).rawPayload);
    expect(pdf.text).toContain('The butler is the heir.');
    expect([Math.round(pdf.width), Math.round(pdf.height)]).toEqual([612, 792]);

    const docx = await readZipEntry((await exportOf('plot-twists', item.id, { format: 'docx', options: { includeResponses: true } }, owner)).rawPayload, 'word/document.xml');
    expect(docx).toContain('The butler is the heir.');
    expect(docx).toContain('I never saw it coming.');

    expect(await counters('tools_plot_twists', item.id)).toBe(9);
    const events = await t.database.sql`select event_data->>'format' as format, session_id from tools_analytics where content_id = ${item.id} and event_type = 'export' order by created_at`;
    expect(events.map((e) => e['format']).sort()).toEqual(['csv', 'csv', 'docx', 'docx', 'html', 'json', 'json', 'pdf', 'pdf']);
    expect(events.every((e) => e['session_id'] === owner)).toBe(true);
  });

  it('exports a flashcard deck for Anki (stable guids) and Quizlet, by id or share code', async () => {
    const deck = await newContent(t.database.sql, 'flashcards', { title: 'Tide pools', content: deckContent });
    const anki = await exportOf('flashcards', deck.share_code, { format: 'anki' });
    expect(anki.statusCode).toBe(200);
    expect(anki.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(anki.headers['content-disposition']).toBe('attachment; filename="content-export.txt"');
    const lines = anki.payload.split('\n');
    expect(lines.slice(0, 7)).toEqual(['#separator:tab', '#html:false', '#notetype:Basic', '#deck:Tide pools', '#columns:GUID\tFront\tBack\tTags', '#guid column:1', '#tags column:4']);
    expect(lines[7]!.split('\t').slice(0, 3)).toEqual([cardGuid(deck.id, 0), 'What is a tide pool?', 'A rocky pool left by the ebbing tide.']);
    expect(lines[8]!.split('\t')[0]).toBe(cardGuid(deck.id, 1));
    // A second export of the same deck carries the same guids: Anki updates the notes.
    expect((await exportOf('flashcards', deck.id, { format: 'ANKI' })).payload).toBe(anki.payload);

    const quizlet = await exportOf('flashcards', deck.id, { format: 'quizlet' });
    expect(quizlet.payload).toBe('What is a tide pool?\tA rocky pool left by the ebbing tide.\nAnemones sting with _____\tnematocysts\n');

    const csv = parseCsv((await exportOf('flashcards', deck.id, { format: 'csv', options: { includeMetadata: false } })).payload);
    expect(csv).toContainEqual(['Deck', 'Tide pools']); // the flashcards tool's own export rows
    expect(csv).toContainEqual(['What is a tide pool?', 'A rocky pool left by the ebbing tide.']);
    expect(await counters('tools_flashcards', deck.id)).toBe(4);
  });

  it('refuses unknown formats (and study-app formats outside flashcards) with INVALID_FORMAT, counting nothing', async () => {
    const item = await newContent(t.database.sql, 'story-prompts');
    for (const format of ['exe', 'anki', 'quizlet', 'xlsx']) {
      const res = await exportOf('story-prompts', item.id, { format });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'INVALID_FORMAT', field: 'format', details: { allowed: ['json', 'csv', 'pdf', 'html', 'docx'] } } });
    }
    for (const [options, field] of [
      [{ theme: 'neon' }, 'options.theme'],
      [{ pageSize: 'a3' }, 'options.pageSize'],
      [{ fontSize: 100 }, 'options.fontSize'],
      [{ template: 'fancy' }, 'options.template'],
      [{ includeMetadata: 'yes' }, 'options.includeMetadata'],
    ] as const) {
      const res = await exportOf('story-prompts', item.id, { format: 'pdf', options });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect(await counters('tools_story_prompts', item.id)).toBe(0);
    expect(await t.database.sql`select 1 from tools_analytics where content_id = ${item.id}`).toHaveLength(0);
  });

  it('exports only what the caller may see: public items, or their own by session or account', async () => {
    const owner = newSession();
    const user = await sessionFor(t);
    const privateItem = await newContent(t.database.sql, 'memory-prompts', { isPublic: false, sessionId: owner });
    const accountItem = await newContent(t.database.sql, 'memory-prompts', { isPublic: false, userId: user.userId });
    const gone = await newContent(t.database.sql, 'memory-prompts', { deletedAt: new Date() });
    const expired = await newContent(t.database.sql, 'memory-prompts', { expiresAt: new Date(Date.now() - 60_000) });
    const linkExpired = await newContent(t.database.sql, 'memory-prompts', { shareType: 'expiring', shareExpiresAt: new Date(Date.now() - 60_000) });

    expect((await exportOf('memory-prompts', privateItem.id, { format: 'json' }, owner)).statusCode).toBe(200);
    expect((await exportOf('memory-prompts', privateItem.id, { format: 'json' })).json().error.code).toBe('CONTENT_NOT_FOUND');
    expect((await exportOf('memory-prompts', accountItem.id, { format: 'json' }, newSession(), user.headers)).statusCode).toBe(200);
    expect((await exportOf('memory-prompts', accountItem.id, { format: 'json' })).statusCode).toBe(404);
    for (const item of [gone, expired, linkExpired]) expect((await exportOf('memory-prompts', item.id, { format: 'json' })).statusCode).toBe(404);
    expect((await exportOf('memory-prompts', '00000000-0000-4000-8000-000000000000', { format: 'json' })).statusCode).toBe(404);
    expect((await exportOf('no-such-tool', privateItem.id, { format: 'json' })).json().error.code).toBe('TOOL_NOT_FOUND');
  });

  it('requires X-Session-ID', async () => {
    const item = await newContent(t.database.sql, 'story-prompts');
    const res = await t.app.inject({ method: 'POST', url: `/api/story-prompts/${item.id}/export`, payload: { format: 'json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'MISSING_SESSION_ID', field: 'X-Session-ID' });
  });

  // Speed is the benchmark's business (bench/tools); this checks the 50+ pages are really there.
  it('renders a 50-page PDF with every paragraph', async () => {
    const paragraphs = Array.from({ length: 1100 }, (_, i) => `Chapter note ${i + 1}: the ferry left at dawn and the island emptied, street by street, until only the bell remained.`);
    const item = await newContent(t.database.sql, 'story-prompts', { content: { title: 'Long one', paragraphs } });
    const res = await exportOf('story-prompts', item.id, { format: 'pdf', options: { fontSize: 14 } });
    expect(res.statusCode).toBe(200);
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.pages).toBeGreaterThanOrEqual(50);
    expect(pdf.text).toContain('Chapter note 1100:');
  });
});
