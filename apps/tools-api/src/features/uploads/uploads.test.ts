// Flashcards from a PDF and from an image (offline OCR), flipbooks from a PDF (stored, pages recorded, served
// with ranges to the page-flip viewer), and the refusals: wrong type, unreadable file, too large.
import { Readable } from 'node:stream';
import { buildTestApp, installPdfWorkerForJest, makePdf, multipartBody, newIp, newSessionId, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  installPdfWorkerForJest();
  t = await buildTestApp();
});
afterAll(async () => t.close());

const upload = (url: string, body: ReturnType<typeof multipartBody>, sessionId = newSessionId()) =>
  t.app.inject({ method: 'POST', url, headers: { ...body.headers, 'x-session-id': sessionId }, remoteAddress: newIp(), payload: body.payload });

const notes = 'Osmosis is the movement of water across a membrane. Diffusion is the spreading of particles from high to low concentration.';

describe('flashcards from files', () => {
  it('makes a deck from a PDF', async () => {
    const pdf = await makePdf([notes, 'Mitosis is the division of a cell into two identical cells.']);
    const res = await upload('/api/flashcards/generate/upload', multipartBody({ filename: 'biology.pdf', type: 'application/pdf', data: pdf }, { options: JSON.stringify({ cardStyle: 'qa' }) }));
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.content.sourceType).toBe('pdf');
    expect(data.content.cards.map((c: { front: string }) => c.front)).toEqual(expect.arrayContaining(['What is Osmosis?', 'What is Mitosis?']));
    const [row] = await t.database.sql`select generation_options, metadata from tools_flashcards where id = ${data.id}`;
    expect(row!['generation_options']).toMatchObject({ sourceType: 'pdf', sourceFile: 'biology.pdf', cardStyle: 'qa' });
    expect(row!['metadata']).toMatchObject({ origin: 'upload', sourceType: 'pdf', fileSize: pdf.length });
  });

  it('makes a deck from a photo of printed text (OCR, offline)', async () => {
    // A real raster image of text: a PDF page rendered by PDF.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PDFParse } = require('pdf-parse') as typeof import('pdf-parse');
    const parser = new PDFParse({ data: new Uint8Array(await makePdf(['Osmosis is the movement of water across a membrane.\n\nPhotosynthesis is the process that turns light into food.'])) });
    const shot = await parser.getScreenshot({ scale: 2, imageDataUrl: false });
    await parser.destroy();
    const png = Buffer.from(shot.pages[0]!.data);
    const res = await upload('/api/flashcards/generate/upload', multipartBody({ filename: 'notes.png', type: 'image/png', data: png }));
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.content.sourceType).toBe('image');
    expect(JSON.stringify(data.content.cards)).toMatch(/Osmosis/);
  }, 60_000);

  it('refuses an image without text with a clear message and gives the use back', async () => {
    const blank = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082', 'hex');
    const sessionId = newSessionId();
    const res = await upload('/api/flashcards/generate/upload', multipartBody({ filename: 'blank.png', type: 'image/png', data: blank }), sessionId);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'file', message: expect.stringMatching(/No readable text/) });
    const [counter] = await t.database.sql`select count from tools_rate_limits where key = ${`sess:${sessionId}`} and scope = 'daily'`;
    expect(counter!['count']).toBe(0);
  }, 60_000);

  it('refuses other file types, damaged PDFs and missing files', async () => {
    const text = await upload('/api/flashcards/generate/upload', multipartBody({ filename: 'a.txt', type: 'text/plain', data: Buffer.from('hello world') }));
    expect(text.statusCode).toBe(415);
    const broken = await upload('/api/flashcards/generate/upload', multipartBody({ filename: 'a.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4\n%garbage that is not a pdf at all') }));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.field).toBe('file');
    const none = await upload('/api/flashcards/generate/upload', multipartBody({ name: 'other', filename: 'a.pdf', type: 'application/pdf', data: Buffer.from('x') }));
    expect(none.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'file' });
    const json = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate/upload', headers: { 'x-session-id': newSessionId() }, payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
    const wrongTool = await upload('/api/plot-twists/generate/upload', multipartBody({ filename: 'a.pdf', type: 'application/pdf', data: Buffer.from('x') }));
    expect(wrongTool.statusCode).toBe(404);
  });

  it('refuses a 100 MB upload from its Content-Length, before reading it', async () => {
    const sessionId = newSessionId();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/flashcards/generate/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(100 * 1024 * 1024), 'x-session-id': sessionId },
      payload: Readable.from([Buffer.from('--x\r\n')]),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await t.database.sql`select 1 from tools_flashcards where session_id = ${sessionId}`).toHaveLength(0);
  });

  it('stops reading a file stream at the size limit when no length is declared', async () => {
    const small = await buildTestApp();
    try {
      const boundary = 'bound';
      let sent = 0;
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const stream = Readable.from(
        (function* () {
          yield head;
          // 25 MB of file body: over the 20 MB limit.
          for (let i = 0; i < 25; i++) {
            sent += chunk.length;
            yield chunk;
          }
          yield Buffer.from(`\r\n--${boundary}--\r\n`);
        })(),
      );
      const res = await small.app.inject({ method: 'POST', url: '/api/flashcards/generate/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-session-id': newSessionId() }, payload: stream });
      expect(res.statusCode).toBe(413);
      expect(sent).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  }, 30_000);
});

describe('flipbooks from PDFs', () => {
  it('stores the PDF, records its pages and serves it with ranges to the viewer', async () => {
    const pdf = await makePdf(['Chapter one. The house on the hill.', 'Chapter two. The storm.', 'Chapter three. Morning.'], 'The Hill House');
    const res = await upload('/api/flipbook/create', multipartBody({ filename: 'hill.pdf', type: 'application/pdf', data: pdf }, { theme: 'dark' }));
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.shareCode).toMatch(/^fb_/);
    expect(data.content).toMatchObject({ title: 'The Hill House', source: 'pdf', pageCount: 3, theme: 'dark' });
    expect(data.content.pages[1].text).toContain('The storm');
    const pages = await t.database.sql`select page_number, storage_key, width, height, text from tools_flipbook_pages where flipbook_id = ${data.id} order by page_number`;
    expect(pages.map((p) => p['page_number'])).toEqual([1, 2, 3]);
    expect(pages[0]!['width']).toBeGreaterThan(0);
    const [row] = await t.database.sql`select metadata from tools_flipbooks where id = ${data.id}`;
    const key = (row!['metadata'] as { pdfKey: string }).pdfKey;
    expect(pages[0]!['storage_key']).toBe(key);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

    const full = await t.app.inject({ method: 'GET', url: `/api/flipbook/${data.shareCode}/pdf` });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('application/pdf');
    expect(full.rawPayload.equals(pdf)).toBe(true);
    expect(full.headers['x-frame-options']).toBe('SAMEORIGIN');
    const part = await t.app.inject({ method: 'GET', url: `/api/flipbook/${data.shareCode}/pdf`, headers: { range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${pdf.length}`);
    expect(part.rawPayload.equals(pdf.subarray(0, 10))).toBe(true);
    const past = await t.app.inject({ method: 'GET', url: `/api/flipbook/${data.shareCode}/pdf`, headers: { range: `bytes=${pdf.length + 10}-` } });
    expect(past.statusCode).toBe(416);

    const viewer = await t.app.inject({ method: 'GET', url: `/flipbook/${data.shareCode}/` });
    expect(viewer.body).toContain(`/api/flipbook/${data.shareCode}/pdf`);
    expect(viewer.body).toContain('Chapter three');
  });

  it('labels a flipbook split from a PDF as made by no model: not AI-generated, no model, no tokens, no AI usage', async () => {
    const pdf = await makePdf(['Page one of the letters.', 'Page two of the letters.'], 'Letters');
    const res = await upload('/api/flipbook/create', multipartBody({ filename: 'letters.pdf', type: 'application/pdf', data: pdf }));
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.aiMetadata).toMatchObject({ model: null, provider: 'none', isAiGenerated: false, tokensUsed: null, confidenceScore: null });
    const [row] = await t.database.sql`select is_ai_generated, ai_model, ai_confidence, ai_tokens_used, ai_generation_prompt from tools_flipbooks where id = ${data.id}`;
    expect(row).toEqual({ is_ai_generated: false, ai_model: null, ai_confidence: null, ai_tokens_used: null, ai_generation_prompt: null });
    expect(await t.database.sql`select 1 from tools_ai_usage where content_id = ${data.id}`).toHaveLength(0);
    const detail = await t.app.inject({ method: 'GET', url: `/api/flipbook/${data.shareCode}` });
    expect(detail.json().data.aiMetadata).toMatchObject({ model: null, isAiGenerated: false, confidenceScore: null });
    const page = await t.app.inject({ method: 'GET', url: `/flipbook/${data.shareCode}/` });
    expect(page.body).toContain('taken from the uploaded file');
    expect(page.body).not.toMatch(/AI[- ]generated|AI model/i);
  });

  it('refuses a non-PDF and answers 404 for unknown flipbooks', async () => {
    const res = await upload('/api/flipbook/create', multipartBody({ filename: 'x.png', type: 'image/png', data: Buffer.from('89504e470d0a1a0a', 'hex') }));
    expect(res.statusCode).toBe(415);
    expect((await t.app.inject({ method: 'GET', url: '/api/flipbook/fb_missing00/pdf' })).statusCode).toBe(404);
  });
});
