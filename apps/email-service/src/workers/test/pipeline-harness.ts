// Test harness for the send pipeline: a real smtp-server on 127.0.0.1 (no STARTTLS, see STACK-NOTES), the
// email-service app on a fresh migrated database with SMTP delivery pointed at it, and row factories.
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import { createEmailDelivery, type EmailDelivery } from '@story/providers';
import type { App } from '@story/http';
import { buildApp } from '../../app';
import { loadConfig, type EmailServiceConfig } from '../../config';

export interface ReceivedMail {
  to: string[];
  raw: string;
  header(name: string): string | undefined;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Answer RCPT TO with this SMTP code (e.g. 451, 550) until reset with null. */
  rejectWith(code: number | null): void;
  close(): Promise<void>;
}

function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

export async function startSmtpSink(overrides: Partial<SMTPServerOptions> = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let reject: number | null = null;
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (reject !== null) return callback(Object.assign(new Error(`Refused with ${reject}`), { responseCode: reject }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, header: (name) => headerOf(raw, name) });
        counter += 1;
        callback(null, `Ok: queued as SINK${counter}x${randomBytes(3).toString('hex')}`);
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
    rejectWith: (code) => {
      reject = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
export const FROM = 'Family Stories <noreply@stories.example>';

export interface PipelineContext {
  app: App;
  database: TestDatabase;
  config: EmailServiceConfig;
  smtp: SmtpSink;
  delivery: EmailDelivery;
  close(): Promise<void>;
}

export async function buildPipelineApp(env: Record<string, string | undefined> = {}): Promise<PipelineContext> {
  const smtp = await startSmtpSink();
  const database = await createTestDatabase();
  const config = loadConfig(testEnv({ EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_BASE_URL: 'https://stories.example', EMAIL_FROM: FROM, ...env }));
  const delivery = createEmailDelivery({ driver: 'smtp', smtpUrl: smtp.url, from: FROM }, { ignoreTLS: true });
  const app = await buildApp({ config, deps: { database, delivery } });
  await app.ready();
  return {
    app,
    database,
    config,
    smtp,
    delivery,
    close: async () => {
      await app.close();
      await database.drop();
      await smtp.close();
    },
  };
}

export async function createAccount(t: { database: TestDatabase }, email = `u.${randomBytes(4).toString('hex')}@example.test`): Promise<{ id: string; email: string }> {
  const [row] = await t.database.sql`insert into accounts (email, role) values (${email}, 'user') returning id`;
  // Marketing mail needs an explicit opt-in (@story/email checkDeliverable): these test users have given it.
  await t.database.sql`insert into user_notification_settings (user_id, marketing_emails) values (${row!['id'] as string}, true)`;
  return { id: row!['id'] as string, email };
}

export async function createTemplate(t: { database: TestDatabase }, category = 'marketing'): Promise<string> {
  const name = `tpl_${category}_${randomBytes(4).toString('hex')}`;
  const [row] = await t.database.sql`insert into email_templates (name, category, subject_template, html_template)
    values (${name}, ${category}, 'Hello {{name}}', '<p>Hello</p>') returning id`;
  return row!['id'] as string;
}

export async function enqueue(
  t: { database: TestDatabase },
  input: { templateId?: string | null; userId?: string | null; to: string; category?: string | null; subject?: string; scheduledFor?: Date },
): Promise<string> {
  const [row] = await t.database.sql`insert into email_send_queue (template_id, user_id, to_email, subject, html_content, text_content, category, scheduled_for)
    values (${input.templateId ?? null}, ${input.userId ?? null}, ${input.to}, ${input.subject ?? 'A subject'}, '<p>Body</p>', 'Body',
            ${input.category === undefined ? 'marketing' : input.category}, ${(input.scheduledFor ?? new Date(Date.now() - 1000)).toISOString()}::timestamptz)
    returning id`;
  return row!['id'] as string;
}
