// The contract harness: the three services as deployed (esbuild bundles of tools/bundle.ts, one process each,
// on one fresh test database and one DATA_DIR, their job runners on), real HTTP over sockets, and every
// exchange judged by Stoplight Prism's validator (@stoplight/prism-http: the router, validateInput and
// validateOutput Prism's validating proxy runs) against the document each service serves at /openapi.json.
// The project's own schemas play no part in the judgement.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getHttpOperationsFromSpec, type IHttpRequest, type IHttpResponse } from '@stoplight/prism-http';
import route from '@stoplight/prism-http/dist/router';
import { validateInput, validateOutput } from '@stoplight/prism-http/dist/validator';
import type { IHttpOperation } from '@stoplight/types';
import { createTestDatabase, freePort, type TestDatabase } from '@story/testing';
// The bundles exactly as `npm start` builds them (the admin application's assets included).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { bundleServices, SERVICE_NODE_FLAGS } from '../../../../tools/bundle';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const SERVICES = ['core-api', 'email-service', 'tools-api'] as const;
export type Service = (typeof SERVICES)[number];

export const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
export const ADMIN_EMAIL = `contract-admin.${randomBytes(4).toString('hex')}@example.test`;

export interface Running {
  url: Record<Service, string>;
  database: TestDatabase;
  output: () => string;
  stop: () => Promise<void>;
}

/** Bundle, then start the three services on free ports and wait for each /health. */
export async function startServices(): Promise<Running> {
  const outRoot = path.join(ROOT, 'dist', `contract-${process.pid}-${randomBytes(3).toString('hex')}`);
  const bundles = await bundleServices(SERVICES, outRoot);
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'story-contract-'));
  const ports = { 'core-api': await freePort(), 'email-service': await freePort(), 'tools-api': await freePort() };
  const url = Object.fromEntries(SERVICES.map((s) => [s, `http://127.0.0.1:${ports[s]}`])) as Record<Service, string>;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    CORE_API_PORT: String(ports['core-api']),
    EMAIL_SERVICE_PORT: String(ports['email-service']),
    TOOLS_API_PORT: String(ports['tools-api']),
    PUBLIC_API_URL: url['core-api'],
    JWT_SECRET: randomBytes(32).toString('hex'),
    UPLOAD_TICKET_SECRET: randomBytes(32).toString('hex'),
    CRON_SECRET: randomBytes(16).toString('hex'),
    EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ADMIN_EMAILS: ADMIN_EMAIL,
    RATE_LIMIT_SCALE: '100',
    SESSION_CACHE_MS: '0',
  };
  const lines: string[] = [];
  const children: ChildProcess[] = SERVICES.map((s) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, bundles[s]], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (c: Buffer) => lines.push(`[${s}] ${c.toString()}`));
    child.stderr?.on('data', (c: Buffer) => lines.push(`[${s}] ${c.toString()}`));
    return child;
  });
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => (clearTimeout(kill), resolve()));
            child.kill('SIGTERM');
          }),
      ),
    );
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(outRoot, { recursive: true, force: true });
  };
  try {
    for (const [i, child] of children.entries()) await waitForHealth(`${url[SERVICES[i] as Service]}/health`, child, () => lines.join(''));
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, database, output: () => lines.join(''), stop };
}

async function waitForHealth(healthUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${healthUrl}: the service exited (${child.exitCode})\n${output()}`);
    try {
      if ((await fetch(healthUrl)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${healthUrl}: no 200 within 60 s\n${output()}`);
}

export interface Exchange {
  service: Service;
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A JSON value, a string, or bytes (multipart and file bodies). */
  body?: unknown;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

export interface Judgement {
  answer: Answer;
  /** Prism's findings on the request (errors and warnings). */
  request: string[];
  /** Prism's findings on the response (errors and warnings: an undeclared status is one). */
  response: string[];
}

const isJson = (type: string | undefined) => !!type && /^application\/(.+\+)?json\b/.test(type);
const isText = (type: string | undefined) => !!type && (type.startsWith('text/') || /xml|javascript/.test(type));
/** Errors (0) and warnings (1) count; information and hints do not. */
const findings = (diagnostics: readonly { severity: number; message: string; path?: readonly (string | number)[] }[]) =>
  diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.message}${d.path?.length ? ` (${d.path.join('.')})` : ''}`);

/** The validator for the three served documents, and a client whose every exchange it judges. */
export async function contractClient(url: Record<Service, string>) {
  const operations = {} as Record<Service, IHttpOperation[]>;
  for (const s of SERVICES) operations[s] = await getHttpOperationsFromSpec((await (await fetch(`${url[s]}/openapi.json`)).json()) as object);

  return async function exchange(x: Exchange): Promise<Judgement> {
    const headers: Record<string, string> = { ...(x.headers ?? {}) };
    let payload: Buffer | string | undefined;
    if (Buffer.isBuffer(x.body) || typeof x.body === 'string') payload = x.body;
    else if (x.body !== undefined) {
      payload = JSON.stringify(x.body);
      headers['content-type'] ??= 'application/json';
    }
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    const res = await fetch(`${url[x.service]}${x.path}`, { method: x.method, headers, body: payload, redirect: 'manual' });
    const bytes = Buffer.from(await res.arrayBuffer());
    const resHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => (resHeaders[k] = v));
    const text = bytes.toString('utf8');
    const answer: Answer = { status: res.status, headers: resHeaders, bytes, text, json: <T>() => JSON.parse(text) as T };

    const target = new URL(x.path, 'http://x');
    const query: Record<string, string | string[]> = {};
    target.searchParams.forEach((v, k) => {
      const seen = query[k];
      query[k] = seen === undefined ? v : [...(Array.isArray(seen) ? seen : [seen]), v];
    });
    const requestType = headers['content-type'];
    const request: IHttpRequest = {
      method: x.method.toLowerCase() as IHttpRequest['method'],
      url: { path: target.pathname, query },
      headers,
      body: payload === undefined ? undefined : isJson(requestType) ? JSON.parse(payload.toString()) : payload.toString(Buffer.isBuffer(payload) && !isText(requestType) && !requestType?.startsWith('multipart/') ? 'latin1' : 'utf8'),
    };
    const routed = route({ resources: operations[x.service], input: request });
    if (routed._tag === 'Left') return { answer, request: [`no operation in the document: ${routed.left.message}`], response: [] };
    const operation = routed.right;
    const input = validateInput({ resource: operation, element: request });
    const responseType = resHeaders['content-type'];
    const response: IHttpResponse = {
      statusCode: res.status,
      headers: resHeaders,
      body: bytes.length === 0 ? undefined : isJson(responseType) ? safeJson(text) : isText(responseType) ? text : bytes.toString('latin1'),
    };
    const output = validateOutput({ resource: operation, element: response });
    return { answer, request: input._tag === 'Left' ? findings(input.left) : [], response: output._tag === 'Left' ? findings(output.left) : [] };
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A multipart/form-data body of text fields and files. */
export function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]): { body: Buffer; contentType: string } {
  const boundary = `contract${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A mono 16-bit PCM WAV of a tone, `seconds` long. */
export function toneWav(seconds: number, rate = 16_000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Poll `check` until it gives a value, at most `ms`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
