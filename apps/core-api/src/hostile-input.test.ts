// Hostile input on core-api's real routes gets a 4xx naming the field and changes nothing
// (CONTRACTS §3): one test per cause. The shared guards themselves are tested in libs/http.
import { buildTestApp, signUp, type SignedUp, type TestContext } from './test/helper';
import { addMember, newFamilyGroup } from './test/family-factories';
import { multipart } from './test/conversations-factories';

let t: TestContext;
let user: SignedUp;
beforeAll(async () => {
  t = await buildTestApp();
  user = await signUp(t.app);
});
afterAll(async () => t.close());

const count = async (table: string) => Number((await t.database.sql`select count(*)::int as n from ${t.database.sql(table)}`)[0]!['n']);
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(2_000, 7)]);

describe('text with a NUL character or a lone surrogate', () => {
  it('refuses it in a body field, a query value and a multipart text field with 400 naming the field, writing nothing', async () => {
    const before = await count('campaigns');
    const body = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: { ...user.headers, 'content-type': 'application/json' }, payload: '{"title":"Mill\\u0000Street"}' });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toBe('Invalid title: contains a NUL character or an unpaired surrogate');
    const surrogate = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: { ...user.headers, 'content-type': 'application/json' }, payload: '{"title":"ok","description":"\\ud800"}' });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().error).toBe('Invalid description: contains a NUL character or an unpaired surrogate');
    expect(await count('campaigns')).toBe(before);

    const query = await t.app.inject({ url: '/api/recordings?search=a%00b', headers: user.headers });
    expect(query.statusCode).toBe(400);
    expect(query.json().error).toBe('Invalid query.search: contains a NUL character or an unpaired surrogate');

    const recordings = await count('recordings');
    const form = multipart([
      { name: 'title', value: 'Grandpa\u0000' },
      { name: 'audio', value: WAV, filename: 'a.wav', contentType: 'audio/wav' },
    ]);
    const upload = await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().error).toBe('Invalid title: contains a NUL character or an unpaired surrogate');
    expect(await count('recordings')).toBe(recordings);
  });
});

describe('JSON nested 5,000 deep', () => {
  it('refuses family group settings nested 5,000 deep with 400 naming settings and creates no group', async () => {
    const before = await count('family_groups');
    const payload = `{"name":"Deep","settings":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const res = await t.app.inject({ method: 'POST', url: '/api/family/groups', headers: { ...user.headers, 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid settings: is nested deeper than 32 levels');
    expect(await count('family_groups')).toBe(before);
  });
});

describe('multipart body without its closing boundary', () => {
  it.each(['/api/recordings', '/api/transcribe', '/api/conversations/upload-audio'])('%s answers 400 and stores nothing', async (url) => {
    const before = await count('recordings');
    const boundary = 'cutShortBoundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
      WAV,
    ]);
    const res = await t.app.inject({ method: 'POST', url, headers: { ...user.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Malformed multipart body');
    expect(await count('recordings')).toBe(before);
  });
});

describe('PUT /api/uploads/direct/{key}', () => {
  it('answers a key holding %25 without a ticket with 403, not a URIError', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/uploads/direct/recordings/x/%25zz.wav', payload: Buffer.from('abc'), headers: { 'content-type': 'audio/wav' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'invalid_ticket' });
  });

  it('answers a valid ticket with no body with 400 and stores nothing', async () => {
    const p = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'long.wav', contentType: 'audio/wav', size: 20_000 } });
    expect(p.statusCode).toBe(200);
    const { uploadUrl, headers, key, ticket } = p.json();
    const ticketOnly = { 'x-upload-ticket': headers['x-upload-ticket'] as string };
    expect(ticketOnly['x-upload-ticket']).toBeTruthy();
    for (const sent of [ticketOnly, headers]) {
      const res = await t.app.inject({ method: 'PUT', url: new URL(uploadUrl).pathname, headers: sent });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('no body');
    }
    // Nothing was stored under the key: registering it finds no upload.
    const register = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key, ticket } });
    expect(register.statusCode).toBe(409);
    expect(register.json().code).toBe('upload_missing');
  });
});

describe('PUT /api/families/{id}/members/{id} with displayName: null', () => {
  it('refuses to leave a member without an account nameless (400 naming displayName) and clears the name of one with an account', async () => {
    const group = await newFamilyGroup(t.database.sql, { ownerId: user.userId });
    const placeholder = await addMember(t.database.sql, { groupId: group.id, displayName: 'Grandma Ines' });
    const url = `/api/families/${group.id}/members/${placeholder.id}`;
    const res = await t.app.inject({ method: 'PUT', url, headers: user.headers, payload: { displayName: null } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('displayName');
    const [row] = await t.database.sql`select display_name from family_members where id = ${placeholder.id}`;
    expect(row).toEqual({ display_name: 'Grandma Ines' });

    const cousin = await signUp(t.app);
    const withAccount = await addMember(t.database.sql, { groupId: group.id, userId: cousin.userId, displayName: 'Cousin Vi' });
    const cleared = await t.app.inject({ method: 'PUT', url: `/api/families/${group.id}/members/${withAccount.id}`, headers: user.headers, payload: { displayName: null } });
    expect(cleared.statusCode).toBe(200);
    const [after] = await t.database.sql`select display_name from family_members where id = ${withAccount.id}`;
    expect(after).toEqual({ display_name: null });
  });
});

describe('integer query values', () => {
  it('refuses limit=0x10 with 400 naming the parameter and accepts limit=16', async () => {
    const hex = await t.app.inject({ url: '/api/recordings?limit=0x10', headers: user.headers });
    expect(hex.statusCode).toBe(400);
    expect(hex.json().error).toBe('Invalid query.limit: must be a number written in decimal digits');
    const decimal = await t.app.inject({ url: '/api/recordings?limit=16', headers: user.headers });
    expect(decimal.statusCode).toBe(200);
  });
});
