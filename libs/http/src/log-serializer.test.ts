// The request log never holds a credential from a URL, while the route stays readable.
import { Writable } from 'node:stream';
import { createServer, maskEmails, redactUrl, type App } from './index';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

describe('redactUrl', () => {
  it.each([
    ['/api/family/invitations/SeCrEtInViTe123/public', '/api/family/invitations/[redacted]/public'],
    ['/api/family/invitations/SeCrEtInViTe123', '/api/family/invitations/[redacted]'],
    ['/api/family/welcome/SeCrEtInViTe123?x=1', '/api/family/welcome/[redacted]?x=1'],
    ['/api/family/invitations/accept', '/api/family/invitations/accept'],
    ['/api/family/invitations', '/api/family/invitations'],
    ['/api/email/unsubscribe?token=abc.def', '/api/email/unsubscribe?token=[redacted]'],
    ['/api/shop/share?sessionId=sess_1_abc&page=2', '/api/shop/share?sessionId=[redacted]&page=2'],
    ['/x?session_id=1&code=2&access_token=3&refresh_token=4&ticket=5&signature=6&X-Amz-Signature=7&keep=8', '/x?session_id=[redacted]&code=[redacted]&access_token=[redacted]&refresh_token=[redacted]&ticket=[redacted]&signature=[redacted]&X-Amz-Signature=[redacted]&keep=8'],
    ['/x?TOKEN=a&token[]=b&%74oken=c&invite_token=d', '/x?TOKEN=[redacted]&token[]=[redacted]&%74oken=[redacted]&invite_token=[redacted]'],
    ['/api/family/%69nvitations/SeCrEt', '/api/family/%69nvitations/[redacted]'],
    ['/api/stories/abc/share/XyZ123', '/api/stories/abc/share/XyZ123'],
    ['/api/auth/oauth/google/callback?code=abc&state=def&scope=email', '/api/auth/oauth/google/callback?code=[redacted]&state=[redacted]&scope=email'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('redacts route parameters named like credentials when the route is known', () => {
    expect(redactUrl('/api/magic/abc123/go', '/api/magic/:token/go')).toBe('/api/magic/[redacted]/go');
    expect(redactUrl('/api/share/ABC', '/api/share/:shareCode')).toBe('/api/share/ABC');
    // A story share link's secret is its last segment.
    expect(redactUrl('/api/stories/abc/share/XyZ123secret', '/api/stories/:storyId/share/:shareId')).toBe('/api/stories/abc/share/[redacted]');
    expect(redactUrl('/x?nonce=abc&keep=1')).toBe('/x?nonce=[redacted]&keep=1');
  });
});

describe('maskEmails', () => {
  it.each([
    ['rose@example.test', 'r***@example.test'],
    ['sign-in locked for Rose.Smith+x@Mail.Example.org now', 'sign-in locked for R***@Mail.Example.org now'],
    ['/x?email=rose%40example.test&a=b', '/x?email=r***%40example.test&a=b'],
    ['a@b.co, c.d@e.io', 'a***@b.co, c***@e.io'],
    ['no address here @ all', 'no address here @ all'],
  ])('%s -> %s', (text, expected) => expect(maskEmails(text)).toBe(expected));
});

describe('createServer request log', () => {
  let app: App;
  const logs = capture();

  beforeAll(async () => {
    app = createServer({ name: 'log-test', logLevel: 'info', logStream: logs.stream });
    app.get('/api/family/invitations/:token/public', async () => ({ ok: true }));
    app.get('/api/email/unsubscribe', async () => ({ ok: true }));
    app.get('/log-emails', async (request) => {
      request.log.info({ email: 'ann.lee@example.test', nested: { to: ['kim.park@example.test'] } }, 'mailed sam.smith@example.test');
      request.log.error({ err: new Error('duplicate key: (email)=(err.one@example.test)') }, 'failed');
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('writes the method and readable path but no token or session id', async () => {
    await app.inject({ url: '/api/family/invitations/InviteSecret0123456789/public' });
    await app.inject({ url: '/api/email/unsubscribe?token=UnsubSecret.0123456789&sessionId=sess_1700000000000_SessSecret' });
    const text = logs.lines.join('\n');
    expect(text).toContain('"url":"/api/family/invitations/[redacted]/public"');
    expect(text).toContain('"url":"/api/email/unsubscribe?token=[redacted]&sessionId=[redacted]"');
    expect(text).toContain('"method":"GET"');
    for (const secret of ['InviteSecret', 'UnsubSecret', 'SessSecret']) expect(text).not.toContain(secret);
  });

  it('masks email addresses in every line: messages, fields, nested values, errors and URLs', async () => {
    await app.inject({ url: '/log-emails?to=grandma.rose%40example.test' });
    const text = logs.lines.join('\n');
    expect(text).toContain('a***@example.test');
    expect(text).toContain('"msg":"mailed s***@example.test"');
    for (const address of ['ann.lee@example.test', 'sam.smith@example.test', 'kim.park@example.test', 'err.one@example.test', 'grandma.rose%40example.test', 'grandma.rose@example.test']) {
      expect(text).not.toContain(address);
    }
  });
});

describe('createServer trustProxy', () => {
  async function ipOf(trustProxy: false | number | string[] | undefined, headers: Record<string, string>) {
    const app = createServer({ name: 'proxy-test', logLevel: 'silent', trustProxy });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    try {
      const res = await app.inject({ url: '/ip', remoteAddress: '127.0.0.1', headers });
      return res.json().ip as string;
    } finally {
      await app.close();
    }
  }

  it('ignores X-Forwarded-For unless a trusted proxy sends it', async () => {
    const xff = { 'x-forwarded-for': '203.0.113.7' };
    expect(await ipOf(undefined, xff)).toBe('127.0.0.1');
    expect(await ipOf(false, xff)).toBe('127.0.0.1');
    expect(await ipOf(1, xff)).toBe('203.0.113.7');
    expect(await ipOf(['127.0.0.1/8'], xff)).toBe('203.0.113.7');
    expect(await ipOf(['10.0.0.0/8'], xff)).toBe('127.0.0.1');
    // One trusted hop: a client-made entry further left is not believed.
    expect(await ipOf(1, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).toBe('203.0.113.7');
  });
});
