// The outbox adapter writes what SMTP would have carried: a real RFC 5322 .eml per message.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../provider-error';
import type { EmailMessage } from './email.port';
import { createEmailDelivery } from './index';
import { leafParts, parseMime } from './test/mime';

const message = (overrides: Partial<EmailMessage> = {}): EmailMessage => ({
  from: 'Family Stories <noreply@stories.example>',
  to: 'Grandpa Joe <joe@example.com>',
  subject: 'Grüße aus der Familie',
  text: 'Hello Joe, a new story is waiting — open it today.',
  html: '<p>Hello Joe, a new <em>story</em> is waiting — open it today.</p>',
  headers: {
    'List-Unsubscribe': '<https://stories.example/api/email/unsubscribe?token=t0k3n>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  ...overrides,
});

describe('outbox email delivery', () => {
  let root: string;
  let outboxDir: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'outbox-'));
    outboxDir = join(root, 'data', 'outbox');
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const outbox = () => createEmailDelivery({ driver: 'outbox', outboxDir, from: 'Default <default@stories.example>' });

  it('writes one parseable .eml with the headers and both alternatives', async () => {
    const delivery = outbox();
    const result = await delivery.send(message({ messageId: 'abc-123@stories.example', replyTo: 'help@stories.example' }));

    expect(result).toEqual({
      provider: 'outbox',
      providerMessageId: '<abc-123@stories.example>',
      messageId: '<abc-123@stories.example>',
      accepted: ['Grandpa Joe <joe@example.com>'],
      rejected: [],
    });
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-abc-123_stories\.example\.eml$/);

    const raw = await readFile(join(outboxDir, files[0]), 'utf8');
    expect(raw).toContain('\r\n'); // SMTP line endings, as a mail client expects in an .eml
    const parsed = parseMime(raw);
    expect(parsed.header('From')).toBe('Family Stories <noreply@stories.example>');
    expect(parsed.header('To')).toBe('Grandpa Joe <joe@example.com>');
    expect(parsed.header('Reply-To')).toBe('help@stories.example');
    // Non-ASCII subjects are RFC 2047 encoded words, as they must be on the wire.
    expect(parsed.header('Subject')).toMatch(/^=\?UTF-8\?[QB]\?/);
    expect(parsed.header('Message-ID')).toBe('<abc-123@stories.example>');
    expect(parsed.header('MIME-Version')).toBe('1.0');
    expect(parsed.header('Date')).toBeDefined();
    expect(parsed.header('List-Unsubscribe')).toBe('<https://stories.example/api/email/unsubscribe?token=t0k3n>');
    expect(parsed.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    expect(parsed.contentType).toBe('multipart/alternative');
    expect(parsed.boundary).toBeTruthy();
    expect(raw).toContain(`--${parsed.boundary}--`);
    const parts = leafParts(parsed);
    expect(parts.map((p) => p.contentType)).toEqual(['text/plain', 'text/html']);
    expect(parts[0].body.trim()).toBe('Hello Joe, a new story is waiting — open it today.');
    expect(parts[1].body.trim()).toBe('<p>Hello Joe, a new <em>story</em> is waiting — open it today.</p>');
  });

  it('generates a Message-ID, uses the default sender when none is given, and leaves no temp files', async () => {
    const delivery = outbox();
    const first = await delivery.send(message({ from: '' }));
    const second = await delivery.send(message({ from: '', html: undefined }));

    expect(first.messageId).toMatch(/^<[0-9a-f-]{36}@stories\.example>$/);
    expect(first.providerMessageId).toBe(first.messageId);
    expect(second.messageId).not.toBe(first.messageId);

    const files = (await readdir(outboxDir)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml') && !f.startsWith('.'))).toBe(true);
    const plain = parseMime(await readFile(join(outboxDir, files.find((f) => f.includes(second.messageId.slice(1, 37)))!), 'utf8'));
    expect(plain.header('From')).toBe('Default <default@stories.example>');
    expect(plain.contentType).toBe('text/plain');
  });

  it('verify() creates the directory and fails with a ProviderError when it cannot be written', async () => {
    await expect(outbox().verify()).resolves.toBeUndefined();
    expect(await readdir(outboxDir)).toEqual([]);

    const blocked = join(root, 'not-a-dir');
    await writeFile(blocked, 'x');
    const broken = createEmailDelivery({ driver: 'outbox', outboxDir: join(blocked, 'outbox'), from: 'a@b.example' });
    await expect(broken.verify()).rejects.toBeInstanceOf(ProviderError);
    await expect(broken.send(message())).rejects.toMatchObject({ provider: 'outbox', kind: 'failed' });
  });
});
