// The admin application's pages (CONTRACTS §12) at BENCH_ADMIN_USERS (default 100,000) accounts and
// BENCH_ADMIN_STORIES (default 1,000,000) stories, seeded as bench/admin-stats.ts seeds them. email-service
// runs as deployed (its esbuild bundle, the dashboard's assets beside it); a signed-in admin's browser is
// played by one keep-alive connection with the session cookie, sequential requests, 20 warm-ups, then
// BENCH_DASHBOARD_REQUESTS (default 200) timed. Each page is measured next to the admin API route it draws
// on, called the same way with a Bearer token, in the same run. Target: every page's p95 under 100 ms.
// BENCH_DASHBOARD_ONLY=<text> measures only the pages whose name contains it.
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx --tsconfig tsconfig.base.json bench/dashboard.ts
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { createTokenSigner, hashPassword } from '@story/auth';
import { bundleServices } from '../tools/bundle';
import { seedAdminStats } from './admin-stats-seed';
import { Cleanup } from './lib/cleanup';
import { prepareEmailDatabase, runBench, table } from './email/common';
import { freePort, ROOT, startBundle, waitForOk } from './lib/processes';
import { writeJson } from './lib/report';

const TARGET_P95_MS = 100;
const REQUESTS = Number(process.env['BENCH_DASHBOARD_REQUESTS'] ?? 200);
const JWT_SECRET = 'bench-dashboard-jwt-secret-0123456789abcdef';
const PASSWORD = 'bench-password-1';
const say = (line: string) => process.stderr.write(`[bench:dashboard] ${line}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const positive = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name}="${process.env[name]}": must be a positive integer`);
  return v;
};

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.once('error', reject);
    if (init.body) req.end(init.body);
    else req.end();
  });
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * q) - 1)]!;

/** p50 and p95 of sequential GETs after 20 warm-ups; any answer but 200 (or a body `check` refuses) stops the bench. */
async function latency(url: string, headers: Record<string, string>, check: (body: string) => boolean): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 20; i++) {
    const r = await request(url, { headers });
    if (r.status !== 200 || !check(r.body)) throw new Error(`${url} answered ${r.status}: ${r.body.slice(0, 300)}`);
  }
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await request(url, { headers });
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${r.body.slice(0, 300)}`);
    times.push(r.ms);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

const setCookies = (h: http.IncomingHttpHeaders) => (Array.isArray(h['set-cookie']) ? h['set-cookie'] : []);

async function main(cleanup: Cleanup): Promise<number> {
  const users = positive('BENCH_ADMIN_USERS', 100_000);
  const stories = positive('BENCH_ADMIN_STORIES', 1_000_000);
  const database = await prepareEmailDatabase(cleanup);
  say(`database ${database.name} on ${database.server} (migrated)`);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined, connection: { TimeZone: 'UTC' } });
  cleanup.add('close seed connection', () => sql.end({ timeout: 5 }));
  await seedAdminStats(sql, users, stories, say);

  // The operator: a verified account granted admin, with a password (as core-api's signup stores it).
  const email = 'operator@bench.test';
  const [admin] = await sql<{ id: string }[]>`insert into accounts (email, password_hash, role, granted_role, email_confirmed_at)
    values (${email}, ${await hashPassword(PASSWORD)}, 'admin', 'admin', now()) returning id`;
  await sql`insert into feature_flags (key, description, enabled, rollout_percentage) values ('bench_rollout', 'Half of everyone', true, 50)`;
  await sql`insert into support_flags (content_type, content_id, reason) select 'story', gen_random_uuid(), 'spam' from generate_series(1, 500)`;

  say('bundling email-service (esbuild, as npm start does)');
  const bundles = await bundleServices(['email-service']);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-'));
  cleanup.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startBundle('email-service', path.relative(ROOT, bundles['email-service']), {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    EMAIL_SERVICE_PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET,
    UPLOAD_TICKET_SECRET: 'bench-upload-ticket-secret-0123456789abcdef',
    RATE_LIMIT_SCALE: '1000000',
    // No queue processing during the bench: it would compete for the same two cores.
    EMAIL_PROCESSING_INTERVAL_MS: '3600000',
  });
  cleanup.add('stop email-service', () => service.stop());
  await waitForOk(`${base}/health`, service);

  // Sign in as a browser does: the form's nonce cookie and CSRF token, then the session cookie.
  const form = await request(`${base}/dashboard/sign-in`, { headers: { accept: 'text/html' } });
  const nonce = setCookies(form.headers).find((c) => c.startsWith('story_admin_signin='))?.split(';')[0] ?? '';
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const signedIn = await request(`${base}/dashboard/sign-in`, {
    method: 'POST',
    headers: { accept: 'text/html', cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: PASSWORD, _csrf: csrf }).toString(),
  });
  const cookie = setCookies(signedIn.headers).find((c) => c.startsWith('story_admin='))?.split(';')[0];
  if (signedIn.status !== 303 || !cookie) throw new Error(`sign-in failed: ${signedIn.status} ${signedIn.body.slice(0, 200)}`);
  const browser = { accept: 'text/html', cookie };
  // The API caller: a session row and its token, as core-api would issue them.
  const [session] = await sql<{ id: string }[]>`insert into auth_sessions (user_id, expires_at) values (${admin!.id}, now() + interval '1 day') returning id`;
  const { token } = await createTokenSigner(JWT_SECRET).sign({ userId: admin!.id, email, role: 'admin', sessionId: session!.id });
  const api = { authorization: `Bearer ${token}` };

  const [someone] = await sql<{ user_id: string }[]>`select user_id from stories where user_id is not null limit 1`;
  const isPage = (b: string) => b.includes('<main id="main"');
  const isJson = (b: string) => b.startsWith('{"success":true');
  const cases: { page: string; pageUrl: string; api: string; apiUrl: string }[] = [
    { page: 'GET /dashboard (overview, trends, feed)', pageUrl: '/dashboard', api: 'GET /api/overview-stats', apiUrl: '/api/overview-stats' },
    { page: 'GET /dashboard/users', pageUrl: '/dashboard/users', api: 'GET /api/admin/users', apiUrl: '/api/admin/users?limit=25' },
    { page: 'GET /dashboard/users?search=u99', pageUrl: '/dashboard/users?search=u99', api: 'GET /api/admin/users?search=u99', apiUrl: '/api/admin/users?search=u99&limit=25' },
    { page: 'GET /dashboard/users/:id (tier, activity, flags)', pageUrl: `/dashboard/users/${someone!.user_id}`, api: 'GET /api/admin/users/:id', apiUrl: `/api/admin/users/${someone!.user_id}` },
    { page: 'GET /dashboard/feature-flags/:key (rollout preview)', pageUrl: '/dashboard/feature-flags/bench_rollout', api: 'GET /api/feature-flags', apiUrl: '/api/feature-flags' },
    { page: 'GET /dashboard/analytics', pageUrl: '/dashboard/analytics', api: 'GET /api/admin/email/analytics', apiUrl: '/api/admin/email/analytics' },
    { page: 'GET /dashboard/user-support', pageUrl: '/dashboard/user-support', api: 'GET /api/admin/user-support/summaries', apiUrl: '/api/admin/user-support/summaries' },
    { page: 'GET /dashboard/support (impersonations, audit log)', pageUrl: '/dashboard/support', api: 'GET /api/admin/impersonations', apiUrl: '/api/admin/impersonations' },
    { page: 'GET /dashboard/billing', pageUrl: '/dashboard/billing', api: 'GET /api/admin/billing', apiUrl: '/api/admin/billing' },
  ];
  const rows = [['page', 'p50', 'p95', `< ${TARGET_P95_MS} ms`, 'baseline (admin API route)', 'p50', 'p95', 'page p95 / API p95']];
  const checks: { name: string; target: string; actual: string; met: boolean }[] = [];
  // BENCH_DASHBOARD_ONLY=<text>: only the cases whose page names it (a quicker look at one page).
  const only = process.env['BENCH_DASHBOARD_ONLY'];
  for (const c of cases.filter((x) => !only || x.page.includes(only))) {
    say(`measuring ${c.page} and ${c.api}`);
    const apiTimes = await latency(`${base}${c.apiUrl}`, api, isJson);
    const pageTimes = await latency(`${base}${c.pageUrl}`, browser, isPage);
    const met = pageTimes.p95 < TARGET_P95_MS;
    rows.push([c.page, `${pageTimes.p50.toFixed(1)} ms`, `${pageTimes.p95.toFixed(1)} ms`, met ? 'PASS' : 'MISSED', c.api, `${apiTimes.p50.toFixed(1)} ms`, `${apiTimes.p95.toFixed(1)} ms`, `${(pageTimes.p95 / apiTimes.p95).toFixed(2)}x`]);
    checks.push({ name: `${c.page} p95`, target: `< ${TARGET_P95_MS} ms`, actual: `${pageTimes.p95.toFixed(1)} ms (${c.api} p95 ${apiTimes.p95.toFixed(1)} ms in the same run)`, met });
  }
  const crash = service.crash();
  if (crash) throw new Error(crash);
  const summary = `admin application bench: ${users} accounts, ${stories} stories; ${REQUESTS} sequential requests per case after 20 warm-ups, one keep-alive connection; ${database.server}`;
  process.stdout.write(`\n${summary}\n\n${table(rows)}\n\nThe overview page serves figures at most 60 s old (it says when they were read); /api/overview-stats computes them on every call.\n`);
  writeJson(path.join(ROOT, 'bench', 'results', 'dashboard.json'), { summary, checks });
  return 0;
}

runBench(main);
