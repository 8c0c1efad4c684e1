// Admin dashboard statistics bench (spec 001 Admin application reference, dashboard metrics):
// BENCH_ADMIN_USERS (default 100,000) accounts and BENCH_ADMIN_STORIES (default 1,000,000) stories with
// campaigns, sessions, conversations, books, media, invoices and a waitlist in proportion, then what GET
// /api/overview-stats runs (createAdminStatsService .overview: users, content and platform aggregates plus
// the recent-activity feed) and each section alone, 7 runs after a warm-up. Baseline in the same run: `select
// count(*) from stories`, one scan of the largest table, which no statistic over every story can beat.
// Target: overview under 500 ms.
// Run: npx tsx --tsconfig tsconfig.base.json bench/admin-stats.ts   (BENCH_DATABASE_URL=... for a given server)
import postgres from 'postgres';
import { createDbClient } from '@story/db';
import { createAdminStatsRepository } from '../apps/email-service/src/features/admin/admin-stats/admin-stats.repository';
import { createAdminStatsService } from '../apps/email-service/src/features/admin/admin-stats/admin-stats.service';
import type { Cleanup } from './lib/cleanup';
import { seedAdminStats } from './admin-stats-seed';
import { median, prepareEmailDatabase, runBench, say, table } from './email/common';

const TARGET_MS = 500;
const RUNS = 7;

const positive = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name}="${process.env[name]}": must be a positive integer`);
  return v;
};

async function measure(label: string, work: () => Promise<unknown>): Promise<number[]> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  say(`${label}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  return times;
}

async function main(cleanup: Cleanup): Promise<number> {
  const users = positive('BENCH_ADMIN_USERS', 100_000);
  const stories = positive('BENCH_ADMIN_STORIES', 1_000_000);
  const database = await prepareEmailDatabase(cleanup);
  say(`database ${database.name} on ${database.server} (migrated)`);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined, connection: { TimeZone: 'UTC' } });
  cleanup.add('close seed connection', () => sql.end({ timeout: 5 }));
  await seedAdminStats(sql, users, stories, say);

  // Same pool size as the services (createDbClient default).
  const client = createDbClient(database.url, { applicationName: 'bench-admin-stats' });
  cleanup.add('close stats client', () => client.close());
  const repo = createAdminStatsRepository(client.db);
  const service = createAdminStatsService({ stats: repo });

  const baseline = await measure('baseline count(*) from stories', () => client.sql`select count(*) from stories`);
  const cases = [
    { name: 'GET /api/overview-stats', times: await measure('overview', () => service.overview()) },
    { name: 'GET /api/admin/stats/users', times: await measure('users', () => service.users()) },
    { name: 'GET /api/admin/stats/content', times: await measure('content', () => service.content()) },
    { name: 'GET /api/admin/stats/platform', times: await measure('platform', () => service.platform()) },
    { name: 'recent activity feed', times: await measure('feed', () => repo.recentActivity(20)) },
  ];
  const sample = await service.overview();
  const base = median(baseline);
  const out = [['case', 'median', 'max', 'vs baseline', `< ${TARGET_MS} ms`]];
  out.push(['baseline: select count(*) from stories', `${base.toFixed(1)} ms`, `${Math.max(...baseline).toFixed(1)} ms`, '1.00x', '']);
  for (const c of cases) {
    const m = median(c.times);
    out.push([c.name, `${m.toFixed(1)} ms`, `${Math.max(...c.times).toFixed(1)} ms`, `${(m / base).toFixed(2)}x`, m < TARGET_MS ? 'PASS' : 'MISSED']);
  }
  process.stdout.write(
    `\nadmin stats bench: ${sample.users.total} users, ${sample.content.stories} stories, ${sample.content.campaigns} campaigns, ` +
      `${sample.engagement.conversations} conversations; ${RUNS} runs per case after a warm-up; ${database.server}\n\n${table(out)}\n`,
  );
  return 0;
}

runBench(main);
