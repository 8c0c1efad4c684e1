// Drives the SMTP adapter against a real smtp-server on 127.0.0.1: what arrives on the wire, the queue id it
// reports, and how each kind of SMTP failure becomes a ProviderError.
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { dkimDnsRecord } from '@story/config';
import { testCaFile, testTlsCertificate } from '@story/testing';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { ProviderError } from '../provider-error';
import type { EmailDelivery, EmailMessage } from './email.port';
import { createEmailDelivery } from './index';
import { isRecipientRefusal, parseQueueId, smtpFailureReason, toSmtpProviderError } from './smtp.adapter';
import { EmailDeliveryError } from './delivery-error';
import { leafParts, parseMime } from './test/mime';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

interface TestServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

async function startSmtpServer(overrides: Partial<SMTPServerOptions> = {}): Promise<TestServer> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // The built-in certificate has expired (STACK-NOTES): no STARTTLS here, and the client sets ignoreTLS.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback(null, 'Ok: queued as TEST123');
      });
    },
    ...overrides,
  });
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An smtp-server offering STARTTLS with a test certificate (libs/testing tls/), as Exim does with its default one. */
function startTlsServer(cert: 'self-signed' | 'ca-signed', overrides: Partial<SMTPServerOptions> = {}): Promise<TestServer> {
  return startSmtpServer({ disabledCommands: [], ...testTlsCertificate(cert), ...overrides });
}

const message = (overrides: Partial<EmailMessage> = {}): EmailMessage => ({
  from: 'Family Stories <noreply@stories.example>',
  to: 'grandma@example.com',
  subject: 'Your weekly story reminder',
  text: 'Hello Grandma, tell us a story this week.',
  html: '<p>Hello <b>Grandma</b>, tell us a story this week.</p>',
  headers: {
    'List-Unsubscribe': '<https://stories.example/api/email/unsubscribe?token=abc123def456ghi789jkl012mno345pqr678stu901vwx234yz>, <mailto:unsubscribe@stories.example?subject=unsubscribe>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  ...overrides,
});

describe('SMTP email delivery', () => {
  let server: TestServer | undefined;
  let delivery: EmailDelivery | undefined;

  const connect = (url: string, timeoutMs = 2000) => {
    delivery = createEmailDelivery({ driver: 'smtp', smtpUrl: url, from: 'noreply@stories.example' }, { ignoreTLS: true, timeoutMs });
    return delivery;
  };

  afterEach(async () => {
    await delivery?.close();
    delivery = undefined;
    await server?.close();
    server = undefined;
  });

  it('delivers the envelope, headers and both bodies, and reports the queue id from the 250 reply', async () => {
    server = await startSmtpServer();
    const smtp = connect(server.url);

    const result = await smtp.send(message({ messageId: '<fixed-id-1@stories.example>', replyTo: 'help@stories.example', tags: { template: 'story_reminder' } }));

    expect(result).toEqual({
      provider: 'smtp',
      providerMessageId: 'TEST123',
      messageId: '<fixed-id-1@stories.example>',
      accepted: ['grandma@example.com'],
      rejected: [],
    });
    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail.from).toBe('noreply@stories.example');
    expect(mail.to).toEqual(['grandma@example.com']);

    const parsed = parseMime(mail.raw);
    expect(parsed.header('Subject')).toBe('Your weekly story reminder');
    expect(parsed.header('From')).toBe('Family Stories <noreply@stories.example>');
    expect(parsed.header('To')).toBe('grandma@example.com');
    expect(parsed.header('Reply-To')).toBe('help@stories.example');
    expect(parsed.header('Message-ID')).toBe('<fixed-id-1@stories.example>');
    expect(parsed.header('X-Tag-template')).toBe('story_reminder');
    // RFC 8058 one-click unsubscribe: both headers must arrive intact (folding whitespace aside).
    expect(parsed.header('List-Unsubscribe')?.replace(/\s+/g, ' ')).toBe(message().headers?.['List-Unsubscribe']);
    expect(parsed.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    expect(parsed.contentType).toBe('multipart/alternative');
    const parts = leafParts(parsed);
    expect(parts.map((p) => p.contentType)).toEqual(['text/plain', 'text/html']);
    expect(parts[0].body.trim()).toBe('Hello Grandma, tell us a story this week.');
    expect(parts[1].body.trim()).toBe('<p>Hello <b>Grandma</b>, tell us a story this week.</p>');
  });

  it('generates a Message-ID on the sender domain and falls back to it when the reply has no queue id', async () => {
    server = await startSmtpServer({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback(null, 'Message accepted'));
      },
    });
    const smtp = connect(server.url);
    const result = await smtp.send(message({ from: '' }));
    expect(result.messageId).toMatch(/^<[0-9a-f-]{36}@stories\.example>$/);
    expect(result.providerMessageId).toBe(result.messageId);
  });

  it('verify() succeeds against a live server', async () => {
    server = await startSmtpServer();
    await expect(connect(server.url).verify()).resolves.toBeUndefined();
  });

  it('turns a 550 recipient rejection into a final rejected_input error carrying the code', async () => {
    server = await startSmtpServer({ onRcptTo: (_address, _session, callback) => callback(smtpError('Mailbox unavailable', 550)) });
    const error = await connect(server.url).send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected_input', provider: 'smtp', status: 550, retryable: false });
    expect(server.received).toHaveLength(0);
  });

  it('turns a 554 rejection of the message body into rejected_input', async () => {
    server = await startSmtpServer({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback(smtpError('Message rejected as spam', 554)));
      },
    });
    const error = await connect(server.url).send(message()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected_input', status: 554, retryable: false });
  });

  it('turns a 451 temporary failure into a retryable error', async () => {
    server = await startSmtpServer({ onRcptTo: (_address, _session, callback) => callback(smtpError('Try again later', 451)) });
    const error = await connect(server.url).send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'unavailable', status: 451, retryable: true });
  });

  it('turns a 535 authentication failure into auth', async () => {
    server = await startSmtpServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error('Invalid username or password')),
    });
    const error = await connect(server.url.replace('smtp://', 'smtp://user:wrong@')).send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'auth', status: 535, retryable: false });
  });

  it('gives up on a server that accepts the connection but never greets, within the timeout', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const error = await connect(`smtp://127.0.0.1:${port}`, 300).send(message()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'timeout', retryable: true });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('reports unavailable when nothing listens on the port', async () => {
    const probe = net.createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));

    const smtp = connect(`smtp://127.0.0.1:${port}`);
    const error = await smtp.send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
    await expect(smtp.verify()).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('sends 50 messages in parallel over the pool, each arriving exactly once', async () => {
    server = await startSmtpServer();
    const smtp = connect(server.url);
    const ids = Array.from({ length: 50 }, (_, i) => `<bulk-${i}@stories.example>`);

    const results = await Promise.all(ids.map((messageId, i) => smtp.send(message({ messageId, to: `user${i}@example.com`, subject: `Bulk ${i}` }))));

    expect(results.every((r) => r.providerMessageId === 'TEST123')).toBe(true);
    expect(results.map((r) => r.messageId)).toEqual(ids);
    expect(server.received).toHaveLength(50);
    const arrived = server.received.map((m) => parseMime(m.raw).header('Message-ID')).sort();
    expect(arrived).toEqual([...ids].sort());
    expect(new Set(server.received.map((m) => m.to[0])).size).toBe(50);
  });
});

describe('SMTP delivery: TLS options, the server’s reasons, DKIM', () => {
  let server: TestServer | undefined;
  let delivery: EmailDelivery | undefined;
  const connect = (url: string, extra: { dkim?: { domainName: string; keySelector: string; privateKey: string } } = {}) => {
    delivery = createEmailDelivery({ driver: 'smtp', smtpUrl: url, from: 'noreply@stories.example', ...extra }, { timeoutMs: 3000 });
    return delivery;
  };
  afterEach(async () => {
    await delivery?.close();
    delivery = undefined;
    await server?.close();
    server = undefined;
  });

  it('names the TLS failure of a STARTTLS server with a self-signed certificate, and sends once told to accept it', async () => {
    server = await startTlsServer('self-signed');
    const error = await connect(server.url).send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true, recipientRefused: false });
    expect((error as EmailDeliveryError).reason).toMatch(/^TLS: self-signed certificate \(.*while connecting\)$/);
    expect((error as Error).message).toContain('self-signed certificate');
    expect(server.received).toHaveLength(0);
    await delivery?.close();

    const accepted = await connect(`${server.url}?tls.rejectUnauthorized=false`).send(message());
    expect(accepted.accepted).toEqual(['grandma@example.com']);
    expect(server.received).toHaveLength(1);
  });

  it('trusts a private certificate authority named by tls.caFile, and only certificates it signed', async () => {
    const caFile = testCaFile;
    server = await startTlsServer('ca-signed');
    const sent = await connect(`${server.url}?tls.caFile=${encodeURIComponent(caFile)}&requireTLS=true`).send(message());
    expect(sent.accepted).toEqual(['grandma@example.com']);
    expect(server.received).toHaveLength(1);
    await delivery?.close();
    // Without the CA, the same server's certificate is refused by name.
    const untrusted = await connect(server.url).send(message()).catch((e: unknown) => e);
    expect((untrusted as EmailDeliveryError).reason).toMatch(/^TLS: unable to verify the first certificate/);
    await delivery?.close();
    await server.close();
    // A certificate the CA did not sign is refused even with caFile.
    server = await startTlsServer('self-signed');
    const other = await connect(`${server.url}?tls.caFile=${encodeURIComponent(caFile)}`).send(message()).catch((e: unknown) => e);
    expect((other as EmailDeliveryError).reason).toMatch(/^TLS: self-signed certificate/);
  });

  it('refuses to send in clear with requireTLS when the server offers no STARTTLS', async () => {
    server = await startSmtpServer();
    const error = await connect(`${server.url}?requireTLS=true`).send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect((error as EmailDeliveryError).reason).toMatch(/STARTTLS/i);
    expect(server.received).toHaveLength(0);
  });

  it('carries the reply text of a 550 refusal of the recipient with the address masked, as a permanent recipient refusal', async () => {
    server = await startTlsServer('self-signed', {
      onRcptTo: (address, _session, callback) => callback(smtpError(`5.1.1 <${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`, 550)),
    });
    const error = (await connect(`${server.url}?tls.rejectUnauthorized=false`).send(message()).catch((e: unknown) => e)) as EmailDeliveryError;
    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error).toMatchObject({ kind: 'rejected_input', status: 550, retryable: false, recipientRefused: true });
    expect(error.reason).toBe('550 5.1.1 <g***@example.com>: Recipient address rejected: User unknown in virtual mailbox table (RCPT TO)');
    expect(`${error.reason} ${error.message}`).not.toContain('grandma@example.com');
  });

  it('keeps a 4xx reply retryable and a policy refusal (5.7.1) from suppressing the address', async () => {
    server = await startSmtpServer({ onRcptTo: (_address, _session, callback) => callback(smtpError('4.2.0 Greylisted, please try again in 300 seconds', 450)) });
    const later = (await connect(server.url).send(message()).catch((e: unknown) => e)) as EmailDeliveryError;
    expect(later).toMatchObject({ kind: 'unavailable', retryable: true, recipientRefused: false, reason: '450 4.2.0 Greylisted, please try again in 300 seconds (RCPT TO)' });
    await delivery?.close();
    await server.close();
    server = await startSmtpServer({ onRcptTo: (_address, _session, callback) => callback(smtpError('5.7.1 Relaying denied', 550)) });
    const policy = (await connect(server.url).send(message()).catch((e: unknown) => e)) as EmailDeliveryError;
    expect(policy).toMatchObject({ kind: 'rejected_input', retryable: false, recipientRefused: false, reason: '550 5.7.1 Relaying denied (RCPT TO)' });
  });

  it('names a refused connection in the reason', async () => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const error = (await connect(`smtp://127.0.0.1:${port}`).send(message()).catch((e: unknown) => e)) as EmailDeliveryError;
    expect(error.reason).toBe(`connect ECONNREFUSED 127.0.0.1:${port} (ESOCKET while connecting)`);
  });

  it('DKIM-signs every message so that mailauth verifies it against the key published in DNS', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const txt = dkimDnsRecord(pem);
    const lookups: string[] = [];
    // The DNS stub mailauth asks for <selector>._domainkey.<domain> TXT (its `resolver` option).
    const resolver = async (name: string, rrtype: string) => {
      lookups.push(`${rrtype} ${name}`);
      if (rrtype === 'TXT' && name === 'mail2026._domainkey.stories.example') return [[txt]];
      throw Object.assign(new Error(`no ${rrtype} for ${name}`), { code: 'ENOTFOUND' });
    };
    server = await startSmtpServer();
    const smtp = connect(server.url, { dkim: { domainName: 'stories.example', keySelector: 'mail2026', privateKey: pem } });
    await smtp.send(message({ messageId: '<dkim-1@stories.example>' }));
    const raw = server.received[0]!.raw;
    expect(raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=stories\.example;/m);

    const verified = await dkimVerify(Buffer.from(raw), { resolver });
    expect(lookups).toContain('TXT mail2026._domainkey.stories.example');
    expect(verified.results).toHaveLength(1);
    expect(verified.results[0]).toMatchObject({ signingDomain: 'stories.example', selector: 'mail2026', status: { result: 'pass' } });

    // A body changed after signing fails the same check: the verifier is really verifying.
    const tampered = raw.replace('tell us a story this week', 'tell us a story next week');
    expect(tampered).not.toBe(raw);
    const failed = await dkimVerify(Buffer.from(tampered), { resolver });
    expect(failed.results[0]?.status.result).not.toBe('pass');
  });
});

describe('smtpFailureReason and isRecipientRefusal', () => {
  it.each([
    [{ command: 'RCPT TO', responseCode: 550, response: '550 5.1.1 User unknown' }, true],
    [{ command: 'RCPT TO', responseCode: 550, response: '550 Mailbox unavailable' }, true],
    [{ command: 'RCPT TO', responseCode: 553, response: '553 sorry, that domain isn\u2019t in my list' }, true],
    [{ command: 'RCPT TO', responseCode: 552, response: '552 5.2.2 Mailbox full' }, false],
    [{ command: 'RCPT TO', responseCode: 550, response: '550 5.7.1 Relaying denied' }, false],
    [{ command: 'RCPT TO', responseCode: 554, response: '554 Transaction failed' }, false],
    [{ command: 'RCPT TO', responseCode: 451, response: '451 4.1.1 Try later' }, false],
    [{ command: 'DATA', responseCode: 550, response: '550 5.1.1 User unknown' }, false],
    [{ command: 'MAIL FROM', responseCode: 550, response: '550 5.1.0 Sender rejected' }, false],
  ])('%j refuses the recipient: %s', (err, refused) => {
    expect(isRecipientRefusal(err)).toBe(refused);
  });

  it('masks addresses, drops link queries and keeps one bounded line', () => {
    const reason = smtpFailureReason({
      command: 'DATA',
      responseCode: 554,
      response: '554 5.7.1 Message from joe.bloggs@example.org rejected:\r\n link https://stories.example/verify?token=secret123 is listed',
    });
    expect(reason).toBe('554 5.7.1 Message from j***@example.org rejected: link https://stories.example/verify?… is listed (DATA)');
    expect(smtpFailureReason({ code: 'ESOCKET', command: 'CONN', message: 'x'.repeat(400) })).toHaveLength(300);
  });
});

describe('parseQueueId', () => {
  it.each([
    ['250 2.0.0 Ok: queued as ABC123', 'ABC123'],
    ['250 Ok: queued as TEST123', 'TEST123'],
    ['250 2.0.0 Ok: queued on smtp3m.mail.yandex.net as 1430081058-6ltgNFKSir-iHEKdOrm', '1430081058-6ltgNFKSir-iHEKdOrm'],
    ['250 OK id=1qXyZa-0001Ab-Cd', '1qXyZa-0001Ab-Cd'],
    ['250 OK 4ef9a1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b', '4ef9a1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b'],
    ['250 Ok 0100018c1b2c3d4e-5f6a7b8c-0000-000000', '0100018c1b2c3d4e-5f6a7b8c-0000-000000'],
  ])('reads the id out of %s', (response, id) => {
    expect(parseQueueId(response)).toBe(id);
  });

  it.each(['250 OK', '250 2.0.0 OK  1700000000 a1b2c3-abc.123 - gsmtp', '250 Message accepted', ''])('finds no id in %j', (response) => {
    expect(parseQueueId(response)).toBeUndefined();
  });
});

describe('toSmtpProviderError', () => {
  const nodemailerError = (fields: Record<string, unknown>) => Object.assign(new Error('boom'), fields);

  it.each([
    [{ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' }, 'rejected_input', 550],
    [{ code: 'EMESSAGE', responseCode: 552 }, 'rejected_input', 552],
    [{ code: 'EENVELOPE', responseCode: 452 }, 'unavailable', 452],
    [{ code: 'EPROTOCOL', responseCode: 421 }, 'unavailable', 421],
    [{ code: 'EPROTOCOL', responseCode: 503 }, 'unavailable', 503],
    [{ code: 'EAUTH', responseCode: 535 }, 'auth', 535],
    [{ code: 'EAUTH' }, 'auth', undefined],
    [{ code: 'ETIMEDOUT' }, 'timeout', undefined],
    [{ code: 'ECONNECTION' }, 'unavailable', undefined],
    [{ code: 'ESOCKET' }, 'unavailable', undefined],
    [{ code: 'EDNS' }, 'unavailable', undefined],
    [{ code: 'EENVELOPE' }, 'rejected_input', undefined],
    [{ code: 'ECONFIG' }, 'failed', undefined],
  ])('classifies %j', (fields, kind, status) => {
    const error = toSmtpProviderError(nodemailerError(fields), 'send');
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind, status, provider: 'smtp' });
  });

  it('wraps non-errors and passes ProviderErrors through', () => {
    expect(toSmtpProviderError('weird', 'send')).toMatchObject({ kind: 'failed' });
    const original = new ProviderError('quota', 'smtp', 'x');
    expect(toSmtpProviderError(original, 'send')).toBe(original);
  });

  it('throws a ProviderError for an unusable URL instead of a nodemailer error', () => {
    let thrown: unknown;
    try {
      createEmailDelivery({ driver: 'smtp', smtpUrl: 'smtp://[::1', from: 'a@b.example' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown).toMatchObject({ kind: 'failed', provider: 'smtp' });
  });
});
