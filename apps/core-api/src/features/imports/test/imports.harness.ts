// Test harness for imports and media routes: the app built with its providers in hand (to look at
// storage) and the test-only URL fetch options, a multipart body builder, and the PDF.js worker preload.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { createProviders, type ObjectStorage } from '@story/providers';
import { buildApp } from '../../../app';
import { loadConfig } from '../../../config';
import type { UrlFetchOptions } from '../imports.service';

/** PDF.js starts its fake worker with import(), which Jest's CommonJS sandbox refuses: preload it (plain Node never needs this). */
export function installPdfWorker(): void {
  const g = globalThis as { pdfjsWorker?: unknown };
  if (g.pdfjsWorker) return;
  const file = join(dirname(require.resolve('pdf-parse')), 'pdf.worker.mjs');
  const source = readFileSync(file, 'utf8')
    .replace(/export\s*\{\s*WorkerMessageHandler\s*\};?\s*$/, '')
    .replace(/import\.meta\.url/g, JSON.stringify(pathToFileURL(file).href));
  new Function(source)();
}

export interface ImportsHarness {
  app: App;
  database: TestDatabase;
  storage: ObjectStorage;
  close(): Promise<void>;
}

/** The app with its providers in hand (to look at storage) and the test-only URL fetch options. */
export async function buildImportsApp(urlFetch?: UrlFetchOptions, env: Record<string, string> = {}): Promise<ImportsHarness> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(env));
  const providers = createProviders(config, { db: database.db, publicBaseUrl: 'http://127.0.0.1:3000' });
  const app = await buildApp({ config, deps: { database, providers, urlFetch } });
  await app.ready();
  return { app, database, storage: providers.storage, close: async () => (await app.close(), await database.drop()) };
}

export function multipart(file: { filename: string; type: string; data: Buffer }, fields: Record<string, string> = {}, field = 'file') {
  const boundary = '----importtest7f3a9';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

