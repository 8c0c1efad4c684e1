// core-api as a separate process (as deployed), its start time, and the data the load reads:
// one signed-up user with exactly CAMPAIGNS campaigns.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { performance } from 'node:perf_hooks';
import type { Cleanup } from './cleanup';
import { bundleServices } from '../../tools/bundle';
import { startBundle, waitForOk, type Service } from './processes';

export const CAMPAIGNS = 20;

export interface CoreApi {
  service: Service;
  /** Spawn to first 200 on /health, ms. */
  startMs: number;
}

export function coreApiEnv(databaseUrl: string, port: number, dataDir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    CORE_API_PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET: randomBytes(32).toString('hex'),
    UPLOAD_TICKET_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    // Every rate limit is raised so the plugin still runs on each request but never answers 429.
    RATE_LIMIT_SCALE: '1000000',
  };
}

/** Bundle core-api with esbuild through Nx (cached when nothing changed), as the Dockerfile does. */
/** The core-api bundle exactly as `npm start` builds it (esbuild from the sources, under a second). */
export async function buildCoreApi(): Promise<void> {
  await bundleServices(['core-api']);
}

export async function startCoreApi(env: Record<string, string>, baseUrl: string, cleanup: Cleanup): Promise<CoreApi> {
  const started = performance.now();
  const service = startBundle('core-api', 'dist/apps/core-api/main.cjs', env);
  cleanup.add('stop core-api', () => service.stop());
  await waitForOk(`${baseUrl}/health`, service);
  return { service, startMs: performance.now() - started };
}

export interface Seeded {
  userId: string;
  accessToken: string;
}

/**
 * Sign up through the API, then put the account on the family tier (straight in the database: there is no
 * billing route), since the free tier allows a single campaign and the list needs CAMPAIGNS of them.
 */
export async function seed(baseUrl: string, databaseUrl: string): Promise<Seeded> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.test`;
  const signup = await postJson<{ user: { id: string }; session: { access_token: string } }>(`${baseUrl}/api/auth/signup`, {
    email,
    password: `bench-${randomBytes(6).toString('hex')}-1`,
    fullName: 'Bench User',
  });
  const seeded = { userId: signup.user.id, accessToken: signup.session.access_token };
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql`update profiles set subscription_tier = 'family' where id = ${seeded.userId}`;
  } finally {
    await sql.end();
  }
  for (let i = 1; i <= CAMPAIGNS; i++) {
    await postJson(`${baseUrl}/api/campaigns`, { title: `Bench campaign ${i}`, description: `Campaign ${i} of the benchmark.` }, seeded.accessToken);
  }
  return seeded;
}

/** The measured request must really return the 20 rows, or its req/s means nothing. */
export async function verifyCampaignList(baseUrl: string, accessToken: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/campaigns`, { headers: { authorization: `Bearer ${accessToken}` } });
  const body: unknown = await res.json();
  if (res.status !== 200 || !Array.isArray(body) || body.length !== CAMPAIGNS) {
    const got = Array.isArray(body) ? `${body.length} items` : JSON.stringify(body).slice(0, 200);
    throw new Error(`GET /api/campaigns answered ${res.status} with ${got}, expected ${CAMPAIGNS} items`);
  }
}

async function postJson<T = unknown>(url: string, body: unknown, accessToken?: string): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (accessToken) headers['authorization'] = `Bearer ${accessToken}`;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
