// Hostile input on tools-api's real routes gets 400 INVALID_INPUT naming the field and stores nothing
// (CONTRACTS §3): one test per cause. The shared guards themselves are tested in libs/http.
import { buildTestApp, installPdfWorkerForJest, makePdf, multipartBody, newIp, newSessionId, type TestContext } from './test/helper';

let t: TestContext;
beforeAll(async () => {
  installPdfWorkerForJest();
  t = await buildTestApp();
});
afterAll(async () => t.close());

const flashcards = async () => Number((await t.database.sql`select count(*)::int as n from tools_flashcards`)[0]!['n']);
const headers = () => ({ 'x-session-id': newSessionId(), 'content-type': 'application/json' });

describe('text with a NUL character or a lone surrogate', () => {
  it('refuses it in a path id, a query value, a body option and a multipart field with 400 naming the field', async () => {
    const path = await t.app.inject({ url: '/api/flashcards/a%00b' });
    expect(path.statusCode).toBe(400);
    expect(path.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'params.id', message: 'Invalid params.id: contains a NUL character or an unpaired surrogate' });

    const query = await t.app.inject({ url: '/api/search?q=a%00b' });
    expect(query.statusCode).toBe(400);
    expect(query.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'query.q' });

    const before = await flashcards();
    const body = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate', headers: headers(), remoteAddress: newIp(), payload: '{"options":{"topic":"cells\\ud800"}}' });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'options.topic' });

    const pdf = await makePdf(['Osmosis is the movement of water across a membrane.']);
    const form = multipartBody({ filename: 'a.pdf', type: 'application/pdf', data: pdf }, { cardStyle: 'qa\u0000' });
    const upload = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate/upload', headers: { ...form.headers, 'x-session-id': newSessionId() }, remoteAddress: newIp(), payload: form.payload });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'cardStyle' });
    expect(await flashcards()).toBe(before);
  });
});

describe('JSON nested 5,000 deep', () => {
  it('refuses options nested 5,000 deep, in a JSON body and in a multipart options field, and stores nothing', async () => {
    const before = await flashcards();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const body = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate', headers: headers(), remoteAddress: newIp(), payload: `{"options":{"topic":${deep}}}` });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'options', message: 'Invalid options: is nested deeper than 32 levels' });

    const pdf = await makePdf(['Osmosis is the movement of water across a membrane.']);
    const form = multipartBody({ filename: 'a.pdf', type: 'application/pdf', data: pdf }, { options: `{"a":${deep}}` });
    const upload = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate/upload', headers: { ...form.headers, 'x-session-id': newSessionId() }, remoteAddress: newIp(), payload: form.payload });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'options.a' });
    expect(await flashcards()).toBe(before);
  });
});

describe('multipart body without its closing boundary', () => {
  it('answers 400 on the file upload and stores nothing', async () => {
    const before = await flashcards();
    const boundary = 'cutShortBoundary';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), await makePdf(['Some notes.'])]);
    const res = await t.app.inject({ method: 'POST', url: '/api/flashcards/generate/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-session-id': newSessionId() }, remoteAddress: newIp(), payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'INVALID_INPUT', message: 'Malformed multipart body' } });
    expect(await flashcards()).toBe(before);
  });
});
