// Integration-test harness: a fresh cloned database and a fresh tools-api app per test file.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import { createTokenSigner } from '@story/auth';
import type { App } from '@story/http';
import { createProviders, type LanguageModel, type Providers } from '@story/providers';
import { buildApp } from '../app';
import { SAMPLE_INPUTS } from '../tools/samples';
import { loadConfig, type ToolsApiConfig } from '../config';

export interface TestContext {
  app: App;
  database: TestDatabase;
  config: ToolsApiConfig;
  close(): Promise<void>;
}

export async function buildTestApp(env: Record<string, string | undefined> = {}, overrides: { providers?: Providers; llm?: LanguageModel } = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(env));
  // A fake language model replaces only the LLM of the configured (offline) providers.
  const providers = overrides.llm ? { ...createProviders(config, { db: database.db, publicBaseUrl: 'http://127.0.0.1:3002' }), llm: overrides.llm } : overrides.providers;
  const app = await buildApp({ config, deps: { database, providers } });
  await app.ready();
  return { app, database, config, close: async () => (await app.close(), await database.drop()) };
}

/** An account with a live session, as core-api would have created it; returns its Bearer header. */
export async function sessionFor(t: TestContext, role: 'user' | 'admin' | 'support' = 'user') {
  const email = `${role}.${Math.random().toString(36).slice(2)}@example.test`;
  const [account] = await t.database.sql`insert into accounts (email, role) values (${email}, ${role}) returning id`;
  const [session] = await t.database.sql`insert into auth_sessions (user_id, expires_at) values (${account!['id']}, now() + interval '1 day') returning id`;
  const { token } = await createTokenSigner(t.config.secrets.jwtSecret).sign({ userId: account!['id'], email, role, sessionId: session!['id'] });
  return { userId: account!['id'] as string, sessionId: session!['id'] as string, email, headers: { authorization: `Bearer ${token}` } };
}

/** A fresh, well-formed X-Session-ID (CONTRACTS §6). */
export function newSessionId(): string {
  return `sess_${Date.now()}_${randomBytes(9).toString('hex')}`;
}

/** A random client address, so tests do not share the anonymous per-IP hourly limit. */
export function newIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/**
 * Generate one item with a tool through the real route (anonymous unless headers carry a Bearer token);
 * returns the parsed body's data (status must be 201) and the session used.
 */
export async function generate(
  t: TestContext,
  tool: string,
  options: Record<string, unknown> = {},
  input: { sessionId?: string; headers?: Record<string, string>; ip?: string } = {},
) {
  const sessionId = input.sessionId ?? newSessionId();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${tool}/generate`,
    headers: { 'x-session-id': sessionId, 'user-agent': 'jest', ...(input.headers ?? {}) },
    remoteAddress: input.ip ?? newIp(),
    payload: { sessionId, options },
  });
  if (res.statusCode !== 201) throw new Error(`generate ${tool} failed: ${res.statusCode} ${res.body}`);
  return { sessionId, data: res.json().data as { id: string; shareCode: string; title: string; content: Record<string, unknown> } & Record<string, unknown> };
}

/** Default options that every tool accepts (the tools with required options get them). */
export const SAMPLE_OPTIONS: Record<string, Record<string, unknown>> = SAMPLE_INPUTS;

/**
 * PDF.js (inside pdf-parse) starts its fake worker with a dynamic import(), which Jest's CommonJS sandbox
 * refuses; it first looks for globalThis.pdfjsWorker, so load the worker bundle into this sandbox. Plain
 * Node (production) never needs this.
 */
export function installPdfWorkerForJest(): void {
  const g = globalThis as { pdfjsWorker?: unknown };
  if (g.pdfjsWorker) return;
  const file = join(dirname(require.resolve('pdf-parse')), 'pdf.worker.mjs');
  const source = readFileSync(file, 'utf8')
    .replace(/export\s*\{\s*WorkerMessageHandler\s*\};?\s*$/, '')
    .replace(/import\.meta\.url/g, JSON.stringify(pathToFileURL(file).href));
  new Function(source)();
}

/** A real PDF with one page per text, made with pdfkit. */
export async function makePdf(pages: string[], title = 'Test document'): Promise<Buffer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const text of pages) {
    doc.addPage();
    doc.fontSize(14).text(text);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A multipart/form-data body with one file and text fields. */
export function multipartBody(file: { name?: string; filename: string; type: string; data: Buffer }, fields: Record<string, string> = {}) {
  const boundary = `----tools${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
