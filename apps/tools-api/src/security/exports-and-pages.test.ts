// Spec 002 export and public page routes in tools-api: exports and public pages escape user text, and CSV
// exports neutralise formulas. One item whose title, content (values and keys), SEO fields, keywords and
// public responses are hostile goes through the real routes: CSV (every cell, both columns), HTML, DOCX, PDF,
// JSON exports, the public item page, its embed, the browse and landing pages, and the share API.
// Also held elsewhere: renderer unit cases (features/export/export.renderers.test.ts: CSV round trip with
// formulas, HTML escaping), one escaped page (features/pages/pages.test.ts).
import { buildTestApp, newSessionId, type TestContext } from '../test/helper';
import { newContent, newResponse } from '../test/content-factory';
import { parseCsv, readZipEntry } from '../test/export-readers';

const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">j</a></title></textarea>"\'><svg onload=alert(4)>';
const FORMULAS = ['=HYPERLINK("http://evil.example","click")', '+1+cmd|/C calc!A0', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1', '=cmd|\' /C calc\'!A0'];

/** What in a page or document built from user text could run or load something. */
function activeProblems(page: string): string[] {
  const problems: string[] = [];
  // Quoted attribute values are data (their quotes are escaped inside); a breakout leaves text outside them.
  const html = page.replace(/="[^"]*"/g, '=""');
  if (/<script(?! type="application\/ld\+json">)|<img|<svg|<iframe|<object|<embed/i.test(page)) problems.push('active element');
  if (/<[^>]+\son[a-z]+\s*=/i.test(html)) problems.push('event handler attribute');
  if (/<[^>]+(href|src)\s*=\s*["']?\s*javascript:/i.test(html)) problems.push('javascript: URL');
  if (/<\/title>"'>|<\/textarea>"'>/.test(html)) problems.push('a closing tag came through raw');
  return problems;
}

let t: TestContext;
let item: { id: string; share_code: string };
const sessionId = newSessionId();
const headers = { 'x-session-id': sessionId };
beforeAll(async () => {
  t = await buildTestApp();
  const content: Record<string, unknown> = { title: XSS, prompt: `Prompt ${XSS}`, twists: FORMULAS, nested: { [`=key${XSS}`]: '=1+2' } };
  item = await newContent(t.database.sql, 'plot-twists', { sessionId, title: `Title ${XSS}`, content, isPublic: true, seoDescription: `Desc ${XSS}`, keywords: [XSS, '=1+1'] });
  await newResponse(t.database.sql, { id: item.id, tool: 'plot-twists' }, { title: `=Resp ${XSS}`, content: `@resp ${XSS}`, isPublic: true, moderationStatus: 'approved' });
});
afterAll(async () => t.close());

const exportAs = (format: string) =>
  t.app.inject({ method: 'POST', url: `/api/plot-twists/${item.id}/export`, headers, payload: { format, options: { includeMetadata: true, includeResponses: true } } });

describe('exports', () => {
  it('CSV: no cell of either column starts a formula, and the text survives after the guard quote', async () => {
    const res = await exportAs('csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="content-export.csv"');
    const rows = parseCsv(res.body);
    const cells = rows.flat();
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    // Every hostile formula is present, quoted.
    for (const f of FORMULAS) expect(cells).toContain(`'${f}`);
    expect(cells.some((c) => c.includes('=key<script>'))).toBe(true);
    expect(cells).toContain("'=1+2");
    expect(cells.some((c) => c.startsWith("'=Resp"))).toBe(true);
  });

  it('HTML: a standalone document with every user string escaped, under a CSP that loads nothing', async () => {
    const res = await exportAs('html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="content-export.html"');
    expect(activeProblems(res.body)).toEqual([]);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  });

  it('DOCX: the document XML holds the hostile text as escaped text, never as markup', async () => {
    const res = await exportAs('docx');
    expect(res.statusCode).toBe(200);
    const xml = await readZipEntry(res.rawPayload, 'word/document.xml');
    expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(xml).not.toMatch(/<script|<img|<svg|<[^>]*\sonerror=/i);
    expect(xml).not.toMatch(/<w:instrText[^>]*>[^<]*HYPERLINK/i); // no field codes made from user text
  });

  it('PDF: no script, launch or link action made from user text', async () => {
    const res = await exportAs('pdf');
    expect(res.statusCode).toBe(200);
    const raw = res.rawPayload.toString('latin1');
    expect(raw.startsWith('%PDF-')).toBe(true);
    expect(raw).not.toMatch(/\/JavaScript|\/JS\s*[(<]|\/Launch|\/SubmitForm|\/URI\s*\(\s*javascript/i);
  });

  it('JSON: served as application/json with nosniff, so a browser never renders it', async () => {
    const res = await exportAs('json');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.json().metadata.title).toBe(`Title ${XSS}`);
  });
});

describe('public pages', () => {
  it.each([
    ['item page', () => `/plot-twists/${item.share_code}/`],
    ['embed', () => `/embed/plot-twists/${item.share_code}/`],
    ['browse page', () => '/plot-twists/browse/'],
    ['landing page', () => '/plot-twists/'],
  ])('%s escapes every hostile string (title, SEO, keywords, content, responses, JSON-LD)', async (_name, url) => {
    const res = await t.app.inject({ method: 'GET', url: url() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(activeProblems(res.body)).toEqual([]);
    expect(res.body).toContain('&lt;script&gt;');
    // JSON-LD cannot be closed from inside.
    for (const m of res.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) expect(m[1]).not.toMatch(/<\//);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src/);
  });

  it('the share API answers JSON (the text unchanged as data), never HTML', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/plot-twists/share/${item.share_code}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().data.title).toBe(`Title ${XSS}`);
  });
});
