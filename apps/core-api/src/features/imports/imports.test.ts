// Imports end to end against real PostgreSQL, real local storage, real PDF/DOCX readers and real local
// HTTP servers: paste, upload (PDF, DOCX, TXT), URL (with redirects into loopback and to the cloud
// metadata address, which are never fetched), job status, process, convert, bad input and the quota.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signUp, type SignedUp } from '../../test/helper';
import { newCampaign } from '../../test/stories-books-factories';
import { buildImportsApp, installPdfWorker, multipart, type ImportsHarness } from './test/imports.harness';

async function makePdf(pages: string[]): Promise<Buffer> {
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, info: { Title: 'Grandpa Joe' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const text of pages) doc.addPage().fontSize(12).text(text);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

async function makeDocx(): Promise<Buffer> {
  const { Document, Packer, Paragraph, HeadingLevel } = require('docx') as typeof import('docx');
  const body = (n: number) => 'We walked to the river every summer and caught fish with our hands. '.repeat(n);
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'The River', heading: HeadingLevel.HEADING_1 }),
          new Paragraph(body(3)),
          new Paragraph({ text: 'The School House', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Miss Hattie taught all eight grades in one room with a wood stove in the corner. '.repeat(3)),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

const story = (n: number, what: string) => `${what} `.repeat(n).trim();

describe('imports', () => {
  let h: ImportsHarness;
  let owner: SignedUp;
  let origin: http.Server;
  let inside: http.Server;
  const insideHits: string[] = [];
  const connects: string[] = [];
  let originPort = 0;
  let insidePort = 0;

  beforeAll(async () => {
    installPdfWorker();
    inside = http.createServer((req, res) => (insideHits.push(req.url ?? ''), res.end('internal admin page')));
    await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
    insidePort = (inside.address() as AddressInfo).port;
    origin = http.createServer((req, res) => {
      if (req.url === '/memoir') {
        return res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<html><head><title>Nana's Memoir</title><script>alert(1)</script></head><body><nav>Home | About</nav>
            <h2>Early Days</h2><p>${story(30, 'Nana grew up by the sea.')}</p><h2>The War</h2><p>${story(30, 'Papa went to sea in 1943.')}</p></body></html>`);
      }
      if (req.url === '/to-loopback') return res.writeHead(302, { location: `http://127.0.0.1:${insidePort}/admin` }).end();
      if (req.url === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end();
      if (req.url === '/flaky') return res.writeHead(503).end('busy');
      if (req.url === '/image') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as AddressInfo).port;
    h = await buildImportsApp({
      // Only the origin server's exact address and port may be fetched although it is loopback.
      allowPrivate: [{ cidr: '127.0.0.1/32', port: originPort }],
      resolve: async (host) => {
        if (host === 'memoirs.example.test') return [{ address: '127.0.0.1', family: 4 }];
        if (host === 'intranet.example.test') return [{ address: '10.0.0.8', family: 4 }];
        throw new Error('NXDOMAIN');
      },
      onConnect: (c) => connects.push(`${c.address}:${c.port}`),
    });
    owner = await signUp(h.app);
  }, 30_000);

  afterAll(async () => {
    await h.close();
    await new Promise<void>((r) => origin.close(() => r()));
    await new Promise<void>((r) => inside.close(() => r()));
  });

  const post = (url: string, payload?: object, who: SignedUp = owner) => h.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const get = (url: string, who: SignedUp = owner) => h.app.inject({ method: 'GET', url, headers: who.headers });
  const upload = (file: { filename: string; type: string; data: Buffer }, fields: Record<string, string> = {}, who: SignedUp = owner) => {
    const body = multipart(file, fields);
    return h.app.inject({ method: 'POST', url: '/api/imports/upload', headers: { ...who.headers, ...body.headers }, payload: body.payload });
  };
  const count = async (table: 'imports' | 'stories', userId = owner.userId) =>
    Number((await h.database.sql`select count(*)::int as n from ${h.database.sql(table)} where user_id = ${userId}`)[0]!['n']);
  const storedKeys = async () => (await h.storage.list(`imports/${owner.userId}`)).objects.map((o) => o.key);

  it('imports pasted text, splits it at chapters and converts the candidates into sanitised stories in one go', async () => {
    const content = `Chapter 1: The Farm\n\n${story(30, 'We milked cows.')}\n\n<script>alert("x")</script> & more\n\nChapter 2: The City\n\n${story(30, 'Trams everywhere.')}`;
    const res = await post('/api/imports/paste', { content, title: 'Family book' });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ status: 'completed', sourceType: 'paste', title: 'Family book', wordCount: expect.any(Number), candidates: null });

    const processed = await post(`/api/imports/${created.id}/process`);
    expect(processed.statusCode).toBe(200);
    expect(processed.json().candidates.map((c: { title: string }) => c.title)).toEqual(['Chapter 1: The Farm', 'Chapter 2: The City']);

    const converted = await post(`/api/imports/${created.id}/convert`, {});
    expect(converted.statusCode).toBe(201);
    const body = converted.json();
    expect(body.stories).toHaveLength(2);
    expect(body.story).toMatchObject({ title: 'Chapter 1: The Farm', campaignId: null, book_id: null, ai_enhanced: false });
    expect(body.import.storyId).toBe(body.story.id);
    const rows = await h.database.sql`select title, content, word_count, metadata from stories where user_id = ${owner.userId} order by title`;
    expect(rows).toHaveLength(2);
    // Escaped as text, never markup: the stored content holds only the allowed tags.
    expect(rows[0]!['content']).toContain('&lt;script&gt;');
    expect(rows[0]!['content']).not.toMatch(/<script/i);
    expect(rows[0]!['metadata']).toMatchObject({ source: 'import', importId: created.id, splitMethod: 'local-structure-split' });

    // Converting again is refused and writes nothing.
    const again = await post(`/api/imports/${created.id}/convert`, {});
    expect(again.statusCode).toBe(409);
    expect(await count('stories')).toBe(2);
  });

  it('reads uploaded TXT, PDF and DOCX through the import job and splits each', async () => {
    const txt = await upload({ filename: 'memories.txt', type: 'text/plain', data: Buffer.from(`# Summer\n\n${story(20, 'Hot days.')}\n\n# Winter\n\n${story(20, 'Snow days.')}`) });
    const pdf = await upload({ filename: 'joe.pdf', type: 'application/pdf', data: await makePdf([`CHAPTER 1\n\n${story(25, 'Joe built boats.')}`, `CHAPTER 2\n\n${story(25, 'Joe sailed far.')}`]) });
    const docx = await upload({ filename: 'river.docx', type: 'application/octet-stream', data: await makeDocx() }, { title: 'Childhood' });
    for (const res of [txt, pdf, docx]) {
      expect(res.statusCode).toBe(201);
      expect(res.json().status).toBe('pending');
    }
    expect(pdf.json().mimeType).toBe('application/pdf');
    expect(docx.json().mimeType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(await storedKeys()).toHaveLength(3);
    // Before its text is there, process is taken (202, poll the import) and done when the text is read.
    const early = await post(`/api/imports/${txt.json().id}/process`);
    expect(early.statusCode).toBe(202);
    expect(early.json()).toMatchObject({ id: txt.json().id, status: expect.stringMatching(/^(pending|processing)$/) });
    expect(early.headers['location']).toBe(`/api/imports/${txt.json().id}`);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);

    await h.app.coreJobs.drain();
    const readWithCandidates = (await get(`/api/imports/${txt.json().id}`)).json();
    expect(readWithCandidates.status).toBe('completed');
    expect(readWithCandidates.candidates.map((c: { title: string }) => c.title)).toEqual(['Summer', 'Winter']);
    const titles: Record<string, string[]> = {};
    for (const res of [txt, pdf, docx]) {
      const status = (await get(`/api/imports/${res.json().id}`)).json();
      expect(status).toMatchObject({ status: 'completed', error: null });
      expect(status.wordCount).toBeGreaterThan(30);
      const processed = (await post(`/api/imports/${res.json().id}/process`)).json();
      titles[res.json().fileName] = processed.candidates.map((c: { title: string }) => c.title);
    }
    expect(titles).toEqual({ 'memories.txt': ['Summer', 'Winter'], 'joe.pdf': ['Chapter 1', 'Chapter 2'], 'river.docx': ['The River', 'The School House'] });
    expect((await get(`/api/imports/${pdf.json().id}`)).json().title).toBe('Grandpa Joe');
    expect((await get(`/api/imports/${docx.json().id}`)).json().title).toBe('Childhood');

    // Converting chosen candidates only, with a campaign of the caller's.
    const converted = await post(`/api/imports/${docx.json().id}/convert`, { candidates: [1], title: 'School days' });
    expect(converted.statusCode).toBe(201);
    expect(converted.json().stories.map((s: { title: string }) => s.title)).toEqual(['School days']);
    expect(converted.json().story.content).toContain('Miss Hattie');
  });

  it('refuses a renamed executable, an empty or missing file and an oversized one: 4xx naming file, no row, no object', async () => {
    const before = { rows: await count('imports'), keys: (await storedKeys()).length };
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(2000, 0)]);
    const cases = [
      await upload({ filename: 'story.pdf', type: 'application/pdf', data: exe }),
      await upload({ filename: 'story.txt', type: 'text/plain', data: exe }),
      await upload({ filename: 'photo.txt', type: 'text/plain', data: Buffer.alloc(0) }),
      await (async () => {
        // The file under another field name: there is no file.
        const body = multipart({ filename: 'x.txt', type: 'text/plain', data: Buffer.from('hi') }, {}, 'other');
        return h.app.inject({ method: 'POST', url: '/api/imports/upload', headers: { ...owner.headers, ...body.headers }, payload: body.payload });
      })(),
    ];
    expect((await upload({ filename: 'x.txt', type: 'text/plain', data: Buffer.from('hello') })).statusCode).toBe(201);
    for (const res of cases) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^file /);
    }
    const big = await upload({ filename: 'huge.txt', type: 'text/plain', data: Buffer.alloc(9 * 1024 * 1024, 'a') });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatch(/^file is larger than 8 MB/);
    // The one valid upload above ("hello") is the only new row and object.
    expect(await count('imports')).toBe(before.rows + 1);
    expect((await storedKeys()).length).toBe(before.keys + 1);
  });

  it('refuses private, loopback, metadata and non-http URLs with 400 naming url, before storing anything', async () => {
    const before = await count('imports');
    const refused = [
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/',
      'http://intranet.example.test/',
      `http://127.0.0.1:${insidePort}/`,
      'ftp://example.com/story.txt',
      'file:///etc/passwd',
      'http://nowhere.example.test/',
    ];
    for (const url of refused) {
      const res = await post('/api/imports/url', { url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json().error).toMatch(/^url refused/);
    }
    expect(await count('imports')).toBe(before);
    expect(insideHits).toEqual([]);
  });

  it('fetches a page through the job and reduces its HTML to text; redirects into the network fail the job and are never fetched', async () => {
    connects.length = 0;
    const page = await post('/api/imports/url', { url: `http://memoirs.example.test:${originPort}/memoir` });
    const loop = await post('/api/imports/url', { url: `http://memoirs.example.test:${originPort}/to-loopback` });
    const meta = await post('/api/imports', { sourceType: 'url', url: `http://memoirs.example.test:${originPort}/to-metadata` });
    const image = await post('/api/imports/url', { url: `http://memoirs.example.test:${originPort}/image` });
    const flaky = await post('/api/imports/url', { url: `http://memoirs.example.test:${originPort}/flaky` });
    for (const res of [page, loop, meta, image, flaky]) expect(res.statusCode).toBe(201);
    await h.app.coreJobs.drain();

    const done = (await get(`/api/imports/${page.json().id}`)).json();
    expect(done).toMatchObject({ status: 'completed', title: "Nana's Memoir" });
    const text = (await h.database.sql`select extracted_text from imports where id = ${done.id}`)[0]!['extracted_text'] as string;
    expect(text).toContain('Nana grew up by the sea.');
    expect(text).not.toMatch(/alert|Home \| About|<p>/);
    const candidates = (await post(`/api/imports/${done.id}/process`)).json().candidates;
    expect(candidates.map((c: { title: string }) => c.title)).toEqual(['Early Days', 'The War']);

    for (const res of [loop, meta]) {
      const failed = (await get(`/api/imports/${res.json().id}`)).json();
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/private, local or reserved network/);
    }
    expect((await get(`/api/imports/${image.json().id}`)).json()).toMatchObject({ status: 'failed', error: expect.stringMatching(/image\/png/) });
    // A 503 is worth another attempt: the import waits (pending, with why) while its job backs off.
    expect((await get(`/api/imports/${flaky.json().id}`)).json()).toMatchObject({ status: 'pending', error: 'The page answered with HTTP status 503' });
    const [job] = await h.database.sql`select status, attempts from jobs where kind = 'import.extract' and payload->>'importId' = ${flaky.json().id}`;
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    // Nothing was fetched from the inside server and no connection went anywhere but the origin.
    expect(insideHits).toEqual([]);
    expect(new Set(connects)).toEqual(new Set([`127.0.0.1:${originPort}`]));
  });

  it('lists only the caller\'s imports and hides others\' behind 404 with nothing changed', async () => {
    const other = await signUp(h.app);
    const mine = (await post('/api/imports/paste', { content: story(40, 'Private words.') })).json();
    expect((await get('/api/imports', other)).json().imports).toEqual([]);
    expect((await get('/api/imports')).json().imports.map((i: { id: string }) => i.id)).toContain(mine.id);
    for (const res of [await get(`/api/imports/${mine.id}`, other), await post(`/api/imports/${mine.id}/process`, undefined, other), await post(`/api/imports/${mine.id}/convert`, {}, other)]) {
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json()).sort()).toEqual(['error']);
    }
    const row = (await h.database.sql`select candidates, story_id from imports where id = ${mine.id}`)[0]!;
    expect(row).toEqual({ candidates: null, story_id: null });
    expect(await count('stories', other.userId)).toBe(0);
  });

  it('refuses bad bodies naming the field: empty paste, unknown candidate, foreign campaign', async () => {
    expect((await post('/api/imports/paste', { content: '   \n ' })).json().error).toMatch(/^content is empty/);
    const imp = (await post('/api/imports/paste', { content: story(40, 'Some words here.') })).json();
    const bad = await post(`/api/imports/${imp.id}/convert`, { candidates: [5] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^candidates must be/);
    const other = await signUp(h.app);
    const campaign = await newCampaign(h.database.sql, other.userId);
    const foreign = await post(`/api/imports/${imp.id}/convert`, { campaignId: campaign.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Campaign not found');
    expect((await h.database.sql`select story_id from imports where id = ${imp.id}`)[0]!['story_id']).toBeNull();
  });

  it('refuses an upload over the stored-file quota with 403 naming the storage limit, storing nothing', async () => {
    const user = await signUp(h.app);
    await h.database.sql`insert into recordings (user_id, title, storage_key, original_file_size_bytes) values (${user.userId}, 'big', ${`recordings/${user.userId}/big.wav`}, ${1024 * 1024 * 1024 - 100})`;
    const res = await upload({ filename: 'a.txt', type: 'text/plain', data: Buffer.from(story(50, 'words')) }, {}, user);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ limit: 'storage', tier: 'free', allowed: 1024 * 1024 * 1024 });
    expect(res.json().error).toMatch(/free plan allows 1 GB of stored files/);
    expect(await count('imports', user.userId)).toBe(0);
    expect((await h.storage.list(`imports/${user.userId}`)).objects).toEqual([]);
  });
});
