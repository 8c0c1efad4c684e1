// Hostile input on email-service's real routes gets 400 VALIDATION_ERROR naming the field and writes
// nothing (CONTRACTS §3). The shared guards themselves are tested in libs/http.
import { connect, type AddressInfo } from 'node:net';
import { buildTestApp, sessionFor, type TestContext } from './test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
});
afterAll(async () => t.close());

const base = '/api/admin/email/templates';
const template = (over: string) =>
  `{"name":"welcome_email","display_name":"Welcome","category":"onboarding","subject_template":"Welcome","html_template":"<p>Hi</p>","text_template":"Hi",${over}}`;
const templates = async () => Number((await t.database.sql`select count(*)::int as n from email_templates`)[0]!['n']);

it('refuses a NUL character in a template field with 400 naming it and writes no template', async () => {
  const before = await templates();
  const res = await t.app.inject({ method: 'POST', url: base, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: template('"description":"a\\u0000b"') });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Invalid description: contains a NUL character or an unpaired surrogate' });
  expect(await templates()).toBe(before);
});

it('refuses default_variables nested 5,000 deep with 400 naming it and writes no template', async () => {
  const before = await templates();
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const res = await t.app.inject({ method: 'POST', url: base, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: template(`"default_variables":{"x":${deep}}`) });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Invalid default_variables: is nested deeper than 32 levels' });
  expect(await templates()).toBe(before);
});

it('refuses period=0x10 with 400 naming it and accepts period=16', async () => {
  const hex = await t.app.inject({ url: '/api/admin/email/analytics?period=0x10', headers: admin.headers });
  expect(hex.statusCode).toBe(400);
  expect(hex.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Invalid query.period: must be a number written in decimal digits' });
  const decimal = await t.app.inject({ url: '/api/admin/email/analytics?period=16', headers: admin.headers });
  expect(decimal.statusCode).toBe(200);
  expect(decimal.json().period).toBe(16);
});

describe('a request refused before its body is read gets its answer, not a reset (real socket)', () => {
  /**
   * POST `size` bytes to `path` over a raw connection, paced like a client on a real network, sending the
   * whole request before reading (as many HTTP clients do); the status line, or the socket error.
   */
  const post = (port: number, path: string, size: number, headers: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      let failed: string | undefined;
      socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
      socket.on('error', (err: NodeJS.ErrnoException) => (failed ??= err.code ?? err.message));
      socket.on('close', () => resolve(failed ?? data.split('\r\n')[0] ?? ''));
      socket.on('connect', async () => {
        const head = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'content-length': String(size), ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
        socket.write(`POST ${path} HTTP/1.1\r\n${head.join('')}\r\n`);
        const chunk = Buffer.alloc(32 * 1024, 0x20);
        for (let sent = 0; sent < size && !failed; sent += chunk.length) {
          await new Promise<void>((r) => socket.write(chunk.subarray(0, Math.min(chunk.length, size - sent)), () => r()));
          await new Promise((r) => setTimeout(r, 1));
        }
        // A kept-alive connection stays open after its answer: the client closes it once it has read.
        setTimeout(() => socket.end(), 300);
      });
    });

  it('answers 401 without a token and 403 to a user, for 0.25, 1 and 2 MB bodies, on kept-alive and closing connections', async () => {
    const user = await sessionFor(t, 'user');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const results: string[] = [];
    const expected: string[] = [];
    for (const size of [256 * 1024, 1024 * 1024, 2 * 1024 * 1024]) {
      for (const connection of ['keep-alive', 'close']) {
        results.push(`${size} ${connection} ${await post(port, base, size, { connection })}`);
        expected.push(`${size} ${connection} HTTP/1.1 401 Unauthorized`);
        results.push(`${size} ${connection} ${await post(port, base, size, { connection, authorization: user.headers.authorization })}`);
        expected.push(`${size} ${connection} HTTP/1.1 403 Forbidden`);
      }
    }
    expect(results).toEqual(expected);
  }, 60_000);
});
