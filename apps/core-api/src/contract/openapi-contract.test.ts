// A client written from the published documents meets the three services (CONTRACTS §1: each serves its
// OpenAPI 3 document): a realistic session, sign-up to archive, email admin and the free tools, replayed over
// real sockets against the services as deployed, every exchange judged by Stoplight Prism's validator
// against the document the service serves. Any finding fails: an undeclared status, a media type the
// document does not list, a body that does not match, a request the document does not describe. Bad input
// (wrong media types, missing multipart parts, bodies on routes that take none) must be refused with a 4xx
// the document declares, in a body that matches it.
import { createHash } from 'node:crypto';
import { Webhook } from 'svix';
import { ADMIN_EMAIL, contractClient, eventually, multipart, startServices, toneWav, WEBHOOK_SECRET, type Exchange, type Judgement, type Running } from '../test/contract-harness';

jest.setTimeout(300_000);

let running: Running;
let exchange: Awaited<ReturnType<typeof contractClient>>;
const findings: string[] = [];

beforeAll(async () => {
  running = await startServices();
  exchange = await contractClient(running.url);
}, 180_000);
afterAll(async () => running?.stop());

/** One exchange of the session: it must succeed as expected and Prism must find nothing on either side. */
async function call(x: Exchange, expected: number | number[]): Promise<Judgement> {
  const j = await exchange(x);
  const label = `${x.service} ${x.method} ${x.path} → ${j.answer.status}`;
  for (const f of j.request) findings.push(`${label} request: ${f}`);
  for (const f of j.response) findings.push(`${label} response: ${f}`);
  const wanted = Array.isArray(expected) ? expected : [expected];
  if (!wanted.includes(j.answer.status)) throw new Error(`${label}, expected ${wanted.join(' or ')}: ${j.answer.text.slice(0, 400)}`);
  return j;
}

/** Bad input: refused with a 4xx whose answer the document declares and describes; the validator flags the request. */
async function refused(x: Exchange): Promise<Judgement> {
  const j = await exchange(x);
  const label = `${x.service} ${x.method} ${x.path}`;
  expect({ label, status: j.answer.status >= 400 && j.answer.status < 500 }).toEqual({ label, status: true });
  expect({ label, response: j.response }).toEqual({ label, response: [] });
  expect({ label, requestFlagged: j.request.length > 0 }).toEqual({ label, requestFlagged: true });
  return j;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionId = `sess_${Date.now()}_contract${Math.random().toString(36).slice(2, 10)}`;
const toolsHeaders = { 'x-session-id': sessionId, 'user-agent': 'contract-test' };

/** A small real PDF: two pages of text (pdfkit, as the project's own PDF tests make them). */
async function makePdf(pages: string[]): Promise<Buffer> {
  const PDFDocument = (await import('pdfkit')).default;
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const text of pages) doc.addPage().fontSize(14).text(text);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A 16x16 PNG (sharp, which the image route itself uses). */
async function makePng(): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();
}

describe('a realistic session through all three services, judged by Prism against the served documents', () => {
  let user: { id: string; token: string };
  let admin: { token: string };

  it('core-api: accounts, recordings (upload, waveform, media with Range), direct upload, stories, books and their PDF export', async () => {
    const password = 'contract 9 test password';
    const email = `contract.${Date.now()}@example.test`;
    const signup = (await call({ service: 'core-api', method: 'POST', path: '/api/auth/signup', body: { email, password, fullName: 'Ada Contract' } }, 201)).answer.json<{ user: { id: string }; session: { access_token: string } }>();
    user = { id: signup.user.id, token: signup.session.access_token };
    await call({ service: 'core-api', method: 'POST', path: '/api/auth/signin', body: { email, password } }, 200);
    // A family-tier storyteller, so the session is not stopped by the free tier's allowances.
    await running.database.sql`update profiles set subscription_tier = 'family' where id = ${user.id}`;
    const auth = bearer(user.token);

    const campaign = (await call({ service: 'core-api', method: 'POST', path: '/api/campaigns', headers: auth, body: { title: 'Grandma Rose', description: 'Her farm years' } }, 201)).answer.json<{ campaign: { id: string } }>();
    const campaignId = campaign.campaign?.id ?? (campaign as unknown as { id: string }).id;
    await call({ service: 'core-api', method: 'GET', path: '/api/campaigns', headers: auth }, 200);

    const wav = toneWav(2);
    const upload = multipart([
      { name: 'title', value: 'The farm' },
      { name: 'campaignId', value: campaignId },
      { name: 'audio', value: wav, filename: 'farm.wav', type: 'audio/wav' },
    ]);
    const recording = (await call({ service: 'core-api', method: 'POST', path: '/api/recordings', headers: { ...auth, 'content-type': upload.contentType }, body: upload.body }, 201)).answer.json<{ recording: { id: string; waveform_data: number[] } }>().recording;
    expect(recording.waveform_data.length).toBeGreaterThan(0);
    await call({ service: 'core-api', method: 'GET', path: `/api/recordings/${recording.id}`, headers: auth }, 200);
    await call({ service: 'core-api', method: 'GET', path: '/api/recordings', headers: auth }, 200);
    const wave = (await call({ service: 'core-api', method: 'GET', path: `/api/recordings/${recording.id}/waveform`, headers: auth }, 200)).answer.json<{ waveform: number[] }>();
    expect(wave.waveform).toEqual(recording.waveform_data);
    const whole = await call({ service: 'core-api', method: 'GET', path: `/api/recordings/${recording.id}/audio`, headers: auth }, 200);
    expect(whole.answer.bytes.equals(wav)).toBe(true);
    const part = await call({ service: 'core-api', method: 'GET', path: `/api/recordings/${recording.id}/audio`, headers: { ...auth, range: 'bytes=0-99' } }, 206);
    expect(part.answer.bytes.equals(wav.subarray(0, 100))).toBe(true);

    const big = toneWav(1.5);
    const presign = (await call({ service: 'core-api', method: 'POST', path: '/api/uploads/presign', headers: auth, body: { fileName: 'porch.wav', contentType: 'audio/wav', size: big.length, campaignId } }, 200)).answer.json<{ uploadUrl: string; key: string; ticket: string; headers: Record<string, string> }>();
    const putPath = new URL(presign.uploadUrl).pathname;
    await call({ service: 'core-api', method: 'PUT', path: putPath, headers: { ...presign.headers, 'content-type': 'audio/wav' }, body: big }, 200);
    await call({ service: 'core-api', method: 'POST', path: '/api/uploads/register', headers: auth, body: { key: presign.key, ticket: presign.ticket, title: 'On the porch', campaignId } }, [200, 201]);

    const story = (await call({ service: 'core-api', method: 'POST', path: '/api/stories', headers: auth, body: { title: 'The farm in 1952', content: '<p>We kept three cows on the farm in 1952, and Rose milked them at dawn.</p>', campaignId } }, 201)).answer.json<{ id: string }>();
    await call({ service: 'core-api', method: 'GET', path: '/api/stories', headers: auth }, 200);
    const book = (await call({ service: 'core-api', method: 'POST', path: '/api/books', headers: auth, body: { title: 'Rose', author_name: 'Ada', trim_size: '6x9', selectedStories: [story.id] } }, 201)).answer.json<{ book: { id: string } }>().book;
    const books = (await call({ service: 'core-api', method: 'GET', path: '/api/books', headers: auth }, 200)).answer.json<{ books: { chapters: { id: string }[] }[] }>();
    expect(books.books[0]!.chapters.map((c) => c.id)).toEqual([story.id]);
    const job = (await call({ service: 'core-api', method: 'POST', path: `/api/books/${book.id}/export`, headers: auth, body: { kind: 'interior' } }, 202)).answer.json<{ job: { id: string } }>().job;
    await eventually('the book export', async () => {
      const j = (await call({ service: 'core-api', method: 'GET', path: `/api/books/${book.id}/exports/${job.id}`, headers: auth }, 200)).answer.json<{ job: { status: string } }>().job;
      if (j.status === 'failed') throw new Error('the book export failed');
      return j.status === 'completed' ? true : undefined;
    });
    const pdf = await call({ service: 'core-api', method: 'GET', path: `/api/books/${book.id}/exports/${job.id}/download`, headers: auth }, 200);
    expect(pdf.answer.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // A job of another book: a JSON 404, as declared.
    await call({ service: 'core-api', method: 'GET', path: `/api/books/${book.id}/exports/00000000-0000-4000-8000-000000000000/download`, headers: auth }, 404);
  });

  it('core-api: images, imports (202 while reading), AI helpers, data export (202 with Location), memories and the archive with Range', async () => {
    const auth = bearer(user.token);
    const png = await makePng();
    const image = multipart([{ name: 'title', value: 'Barn' }, { name: 'file', value: png, filename: 'barn.png', type: 'image/png' }]);
    const uploaded = (await call({ service: 'core-api', method: 'POST', path: '/api/upload/local', headers: { ...auth, 'content-type': image.contentType }, body: image.body }, 201)).answer.json<{ id: string }>();
    await call({ service: 'core-api', method: 'GET', path: '/api/images/user-gallery', headers: auth }, 200);
    await call({ service: 'core-api', method: 'GET', path: `/api/images/${uploaded.id}/file`, headers: auth }, 200);

    const text = multipart([{ name: 'title', value: 'Letters' }, { name: 'file', value: Buffer.from(`# Summer\n\n${'We walked to the river every day. '.repeat(20)}\n\n# Winter\n\n${'Snow closed the lane for a week. '.repeat(20)}`), filename: 'letters.txt', type: 'text/plain' }]);
    const imported = (await call({ service: 'core-api', method: 'POST', path: '/api/imports/upload', headers: { ...auth, 'content-type': text.contentType }, body: text.body }, 201)).answer.json<{ id: string }>();
    await call({ service: 'core-api', method: 'POST', path: `/api/imports/${imported.id}/process`, headers: auth }, [200, 202]);
    await eventually('the import', async () => {
      const row = (await call({ service: 'core-api', method: 'GET', path: `/api/imports/${imported.id}`, headers: auth }, 200)).answer.json<{ status: string; candidates: unknown[] | null }>();
      return row.status === 'completed' && row.candidates?.length ? true : undefined;
    });
    await call({ service: 'core-api', method: 'POST', path: `/api/imports/${imported.id}/convert`, headers: auth, body: {} }, 201);

    const grammar = (await call({ service: 'core-api', method: 'POST', path: '/api/ai/grammar', headers: auth, body: { text: 'We went went to Leeds.', userStyle: 'warm and casual' } }, 200)).answer.json<{ appliedStyle: { level: string } }>();
    expect(grammar.appliedStyle.level).toBe('light');
    await call({ service: 'core-api', method: 'POST', path: '/api/ai/content-analysis', headers: auth, body: { prompt: 'Rose milked the cows in 1952.', sessionId: 'not-a-conversation' } }, 200);

    const requested = await call({ service: 'core-api', method: 'POST', path: '/api/user/export-data', headers: auth, body: { format: 'zip' } }, 202);
    const location = requested.answer.headers['location']!;
    expect(requested.answer.headers['retry-after']).toBeDefined();
    const exportDone = await eventually('the data export', async () => {
      const e = (await call({ service: 'core-api', method: 'GET', path: location, headers: auth }, 200)).answer.json<{ export: { status: string; file_url: string } }>().export;
      if (e.status === 'failed') throw new Error('the data export failed');
      return e.status === 'completed' ? e : undefined;
    });
    const zip = await call({ service: 'core-api', method: 'GET', path: exportDone.file_url, headers: auth }, 200);
    expect(zip.answer.bytes.subarray(0, 2).toString()).toBe('PK');

    await call({ service: 'core-api', method: 'GET', path: '/api/memories', headers: auth }, 200);
    const archive = (await call({ service: 'core-api', method: 'POST', path: '/api/account/archive', headers: auth, body: { storytellerId: user.id } }, 201)).answer.json<{ job: { id: string } }>();
    const full = await call({ service: 'core-api', method: 'GET', path: `/api/account/archive/${archive.job.id}/download`, headers: auth }, 200);
    const tail = await call({ service: 'core-api', method: 'GET', path: `/api/account/archive/${archive.job.id}/download`, headers: { ...auth, range: 'bytes=10-' } }, 206);
    expect(tail.answer.bytes.equals(full.answer.bytes.subarray(10))).toBe(true);
  });

  it('email-service: the admin reads and changes, the waitlist, and a signed delivery webhook', async () => {
    const signup = (await call({ service: 'core-api', method: 'POST', path: '/api/auth/signup', body: { email: ADMIN_EMAIL, password: 'admin 9 contract pass' } }, 201)).answer.json<{ user: { id: string } }>();
    // The address is verified (as the verification link would do), so the listed email holds role admin.
    await running.database.sql`update accounts set email_confirmed_at = now() where id = ${signup.user.id}`;
    const signin = (await call({ service: 'core-api', method: 'POST', path: '/api/auth/signin', body: { email: ADMIN_EMAIL, password: 'admin 9 contract pass' } }, 200)).answer.json<{ session: { access_token: string }; user: { role: string } }>();
    expect(signin.user.role).toBe('admin');
    admin = { token: signin.session.access_token };
    const auth = bearer(admin.token);
    for (const path of ['/api/admin/stats/users', '/api/admin/stats/content', '/api/admin/stats/platform', '/api/admin/email/templates', '/api/feature-flags']) {
      await call({ service: 'email-service', method: 'GET', path, headers: auth }, 200);
    }
    await call({ service: 'email-service', method: 'POST', path: '/api/feature-flags', headers: auth, body: { key: 'contract_flag', enabled: true, rolloutPercentage: 50 } }, 200);
    await call({ service: 'core-api', method: 'GET', path: '/api/flags', headers: bearer(user.token) }, 200);
    await call({ service: 'email-service', method: 'POST', path: '/api/waitlist', body: { email: `wait.${Date.now()}@example.test`, name: 'Wally', source: 'contract' } }, 202);

    const payload = JSON.stringify({ type: 'email.delivered', created_at: new Date().toISOString(), data: { email_id: 're_contract_1', to: 'someone@example.test', subject: 'Hi' } });
    const msgId = `msg_${createHash('sha256').update(payload).digest('hex').slice(0, 20)}`;
    const at = new Date();
    const signature = new Webhook(WEBHOOK_SECRET).sign(msgId, at, payload);
    await call(
      { service: 'email-service', method: 'POST', path: '/api/webhooks/email/resend', headers: { 'content-type': 'application/json', 'svix-id': msgId, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': signature }, body: payload },
      200,
    );
  });

  it('tools-api: generate, browse, share, responses (delete without a body), every export format, the HTML pages, search, blurbs by title, flashcards from a PDF and a flipbook', async () => {
    const generated = (await call({ service: 'tools-api', method: 'POST', path: '/api/plot-twists/generate', headers: toolsHeaders, body: { sessionId, options: { genre: 'mystery' } } }, 201)).answer.json<{ data: { id: string; shareCode: string } }>().data;
    await call({ service: 'tools-api', method: 'GET', path: `/api/plot-twists/${generated.id}`, headers: toolsHeaders }, 200);
    await call({ service: 'tools-api', method: 'GET', path: '/api/plot-twists?sort=newest', headers: toolsHeaders }, 200);
    await call({ service: 'tools-api', method: 'POST', path: '/api/plot-twists/share', headers: toolsHeaders, body: { contentId: generated.id, sessionId, shareType: 'public' } }, 200);
    const response = (await call({ service: 'tools-api', method: 'POST', path: `/api/plot-twists/${generated.id}/responses`, headers: toolsHeaders, body: { sessionId, title: 'My take', content: 'The butler was the twin all along.' } }, 201)).answer.json<{ data: { id: string } }>().data;
    await call({ service: 'tools-api', method: 'GET', path: `/api/plot-twists/${generated.id}/responses`, headers: toolsHeaders }, 200);
    await call({ service: 'tools-api', method: 'DELETE', path: `/api/plot-twists/responses/${response.id}`, headers: toolsHeaders }, 200);
    for (const format of ['json', 'csv', 'pdf', 'html', 'docx']) {
      await call({ service: 'tools-api', method: 'POST', path: `/api/plot-twists/${generated.id}/export`, headers: toolsHeaders, body: { format } }, 200);
    }
    for (const path of ['/plot-twists/', '/plot-twists/browse/', `/plot-twists/${generated.shareCode}/`, `/embed/plot-twists/${generated.shareCode}/`, '/plot-twists/nope_nope/']) {
      await call({ service: 'tools-api', method: 'GET', path }, path.includes('nope') ? 404 : 200);
    }
    await call({ service: 'tools-api', method: 'GET', path: '/api/search?q=twist', headers: toolsHeaders }, 200);
    await call({ service: 'tools-api', method: 'POST', path: '/api/book-blurb/generate', headers: toolsHeaders, body: { sessionId, options: { title: 'The Salt Road' } } }, 201);

    const pdf = await makePdf([`Osmosis is the movement of water across a membrane. ${'Cells take in water by osmosis. '.repeat(5)}`, `Diffusion is the spreading of particles. ${'Gases mix by diffusion. '.repeat(5)}`]);
    const cards = multipart([{ name: 'file', value: pdf, filename: 'biology.pdf', type: 'application/pdf' }]);
    await call({ service: 'tools-api', method: 'POST', path: '/api/flashcards/generate/upload', headers: { ...toolsHeaders, 'content-type': cards.contentType }, body: cards.body }, 201);
    const book = multipart([{ name: 'title', value: 'Biology notes' }, { name: 'file', value: pdf, filename: 'biology.pdf', type: 'application/pdf' }]);
    const flipbook = (await call({ service: 'tools-api', method: 'POST', path: '/api/flipbook/create', headers: { ...toolsHeaders, 'content-type': book.contentType }, body: book.body }, 201)).answer.json<{ data: { shareCode: string } }>().data;
    await call({ service: 'tools-api', method: 'GET', path: `/api/flipbook/${flipbook.shareCode}/pdf` }, 200);
    await call({ service: 'tools-api', method: 'GET', path: `/api/flipbook/${flipbook.shareCode}/pdf`, headers: { range: 'bytes=0-9' } }, 206);
  });

  it('Prism found nothing in any exchange of the session', () => {
    expect(findings).toEqual([]);
  });
});

describe('bad input is refused with a 4xx the document declares', () => {
  it('wrong media types, missing multipart parts and bodies on routes that take none', async () => {
    const signup = (await call({ service: 'core-api', method: 'POST', path: '/api/auth/signup', body: { email: `bad.${Date.now()}@example.test`, password: 'bad input 9 pass' } }, 201)).answer.json<{ session: { access_token: string } }>();
    const auth = bearer(signup.session.access_token);
    // Wrong media types.
    await refused({ service: 'core-api', method: 'POST', path: '/api/recordings', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'not multipart' }) });
    await refused({ service: 'core-api', method: 'POST', path: '/api/campaigns', headers: { ...auth, 'content-type': 'application/xml' }, body: '<campaign><title>x</title></campaign>' });
    await refused({ service: 'tools-api', method: 'POST', path: '/api/flipbook/create', headers: { ...toolsHeaders, 'content-type': 'text/plain' }, body: 'a flipbook please' });
    // Missing multipart parts: no file.
    const noAudio = multipart([{ name: 'title', value: 'no audio' }]);
    await refused({ service: 'core-api', method: 'POST', path: '/api/recordings', headers: { ...auth, 'content-type': noAudio.contentType }, body: noAudio.body });
    const noFile = multipart([{ name: 'title', value: 'no file' }]);
    await refused({ service: 'core-api', method: 'POST', path: '/api/imports/upload', headers: { ...auth, 'content-type': noFile.contentType }, body: noFile.body });
    await refused({ service: 'tools-api', method: 'POST', path: '/api/flipbook/create', headers: { ...toolsHeaders, 'content-type': noFile.contentType }, body: noFile.body });
    // Bodies on routes that take none.
    await refused({ service: 'core-api', method: 'POST', path: '/api/auth/signout', headers: auth, body: { everything: true } });
    await refused({ service: 'email-service', method: 'POST', path: '/api/clear-cache', headers: auth, body: { all: true } });
    await refused({ service: 'tools-api', method: 'DELETE', path: '/api/story-prompts/save/p1', headers: toolsHeaders, body: { why: 'because' } });
  });
});

describe('every text a request carries is bounded in the documents (an unbounded string reaching a unique index was a 500)', () => {
  /** Query and path parameters each tools-api handler parses itself, with its own bounds (400 naming them). */
  const PARSED_BY_HANDLER = new Set(['query.page', 'query.limit', 'query.sort', 'query.public', 'query.featured', 'query.days', 'query.q', 'query.type', 'query.tools', 'path.tool', 'path.key']);
  const SELF_BOUNDED_FORMATS = new Set(['uuid', 'date', 'date-time', 'binary']);

  function unbounded(schema: Record<string, unknown> | undefined, where: string, out: string[]): void {
    if (!schema || typeof schema !== 'object') return;
    if (schema['type'] === 'string' && schema['maxLength'] === undefined && schema['enum'] === undefined && !SELF_BOUNDED_FORMATS.has(String(schema['format']))) {
      const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : '';
      // A pattern without * or + bounds the length by itself.
      if (!pattern || /[*+]/.test(pattern)) out.push(where);
    }
    for (const [name, sub] of Object.entries((schema['properties'] as Record<string, Record<string, unknown>>) ?? {})) unbounded(sub, `${where}.${name}`, out);
    if (schema['items']) unbounded(schema['items'] as Record<string, unknown>, `${where}[]`, out);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const sub of (schema[key] as Record<string, unknown>[]) ?? []) unbounded(sub, where, out);
    if (schema['additionalProperties'] && typeof schema['additionalProperties'] === 'object') unbounded(schema['additionalProperties'] as Record<string, unknown>, `${where}.*`, out);
  }

  it('has a maxLength (or an enum, a format or a bounded pattern) on every string of every request body and parameter', async () => {
    const found: string[] = [];
    for (const service of ['core-api', 'email-service', 'tools-api'] as const) {
      const doc = (await (await fetch(`${running.url[service]}/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: Record<string, unknown> }[]; requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> } }>> };
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const out: string[] = [];
          for (const p of op.parameters ?? []) if (!PARSED_BY_HANDLER.has(`${p.in}.${p.name}`)) unbounded(p.schema, `${p.in}.${p.name}`, out);
          for (const media of Object.values(op.requestBody?.content ?? {})) unbounded(media.schema, 'body', out);
          found.push(...out.map((w) => `${service} ${method.toUpperCase()} ${path} ${w}`));
        }
      }
    }
    expect(found).toEqual([]);
  });
});
