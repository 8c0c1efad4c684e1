// Analytics bench: BENCH_QUEUE_ROWS (default 1,000,000) email_send_queue rows over 400 days, ~20 templates and
// every status, then the admin analytics computation (createAnalyticsService().get, what GET
// /api/admin/email/analytics runs) timed 5 times per case after a warm-up. Target: under 300 ms.
import postgres from 'postgres';
import { createDbClient, type Database } from '@story/db';
import type { SQL } from 'drizzle-orm';
import { createAnalyticsRepository } from '../../apps/email-service/src/features/analytics/analytics.repository';
import { createAnalyticsService } from '../../apps/email-service/src/features/analytics/analytics.service';
import type { Cleanup } from '../lib/cleanup';
import { median, prepareEmailDatabase, runBench, say, table } from './common';

const TARGET_MS = 300;
const RUNS = 5;
const TEMPLATES = 20;
const CHUNK = 250_000;

async function seed(sql: postgres.Sql, rows: number): Promise<string> {
  await sql`insert into email_templates (name, display_name, category, subject_template, html_template)
    select 'bench_tpl_' || lpad(i::text, 2, '0'), 'Bench template ' || i,
           (array['transactional','marketing','onboarding','reminder','system'])[1 + i % 5], 'Subject {{name}}', '<p>Hello</p>'
    from generate_series(1, ${TEMPLATES}) i`;
  for (let from = 1; from <= rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK - 1);
    const started = performance.now();
    // r: status draw; created within 400 days; pending/processing only in the last hour (a healthy queue).
    await sql`
      with t as (select array_agg(id order by name) as ids, array_agg(category order by name) as cats from email_templates where name like 'bench_tpl_%'),
      g as (
        select i, random() as r, random() as e, now() - random() * interval '400 days' as created, 1 + (i % ${TEMPLATES + 2}) as ti
        from generate_series(${from}::int, ${to}::int) i
      )
      insert into email_send_queue (template_id, to_email, subject, html_content, text_content, category, status, scheduled_for, attempts,
                                    created_at, updated_at, sent_at, delivered_at, opened_at, clicked_at, bounced_at, error_message, message_id_header)
      select case when g.ti <= ${TEMPLATES} then t.ids[g.ti] end,
             'user' || g.i || '@example.test', 'A subject', '<p>Body</p>', 'Body',
             case when g.ti <= ${TEMPLATES} then t.cats[g.ti] else 'transactional' end,
             s.status, g.created, case when s.status in ('sent','failed') then 1 else 0 end,
             g.created, g.created + interval '5 seconds',
             case when s.status = 'sent' then g.created + interval '3 seconds' end,
             case when s.status = 'sent' and g.e < 0.95 then g.created + interval '10 seconds' end,
             case when s.status = 'sent' and g.e < 0.35 then g.created + interval '2 hours' end,
             case when s.status = 'sent' and g.e < 0.08 then g.created + interval '2 hours 5 minutes' end,
             case when s.status = 'sent' and g.e > 0.98 then g.created + interval '12 seconds' end,
             case when s.status = 'failed' then 'Rejected by the mail server' end,
             '<bench-' || g.i || '@stories.example>'
      from g cross join t
      cross join lateral (select case
        when g.created > now() - interval '1 hour' and g.r < 0.3 then 'pending'
        when g.created > now() - interval '1 hour' and g.r < 0.4 then 'processing'
        when g.r < 0.88 then 'sent'
        when g.r < 0.95 then 'failed'
        else 'cancelled' end as status) s`;
    say(`inserted rows ${from}..${to} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await sql`vacuum analyze email_send_queue`;
  await sql`analyze email_templates`;
  const [tpl] = await sql<{ id: string }[]>`select id from email_templates where name = 'bench_tpl_07'`;
  return tpl!.id;
}

/** The db handle, with the first statement of each get() captured for EXPLAIN. */
function capturing(db: Database): { db: Database; last: () => SQL | undefined; reset: () => void } {
  let first: SQL | undefined;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'execute') {
        return (query: SQL) => {
          first ??= query;
          return target.execute(query);
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return { db: proxy, last: () => first, reset: () => (first = undefined) };
}

async function main(cleanup: Cleanup): Promise<number> {
  const rows = Number(process.env['BENCH_QUEUE_ROWS'] ?? 1_000_000);
  if (!Number.isInteger(rows) || rows <= 0) throw new Error(`BENCH_QUEUE_ROWS="${process.env['BENCH_QUEUE_ROWS']}": must be a positive integer`);
  const database = await prepareEmailDatabase(cleanup);
  say(`database ${database.name} on ${database.server} (migrated)`);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined, connection: { TimeZone: 'UTC' } });
  cleanup.add('close seed connection', () => sql.end({ timeout: 5 }));
  const seedStarted = performance.now();
  const templateId = await seed(sql, rows);
  say(`seeded ${rows} queue rows in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  // Same pool size as the services (createDbClient default).
  const client = createDbClient(database.url, { applicationName: 'bench-email-analytics' });
  cleanup.add('close analytics client', () => client.close());
  const cap = capturing(client.db);
  const service = createAnalyticsService({ analytics: createAnalyticsRepository(cap.db) });

  const cases = [
    { name: 'period 30', input: { period: 30 } },
    { name: 'period 365', input: { period: 365 } },
    { name: 'period 30, template filter', input: { period: 30, template_id: templateId } },
    { name: 'period 365, template filter', input: { period: 365, template_id: templateId } },
  ];
  const results: { name: string; times: number[]; sent: number; statement: SQL }[] = [];
  for (const c of cases) {
    cleanup.assertRunning();
    cap.reset();
    const warm = await service.get(c.input);
    const statement = cap.last()!;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await service.get(c.input);
      times.push(performance.now() - t0);
    }
    results.push({ name: c.name, times, sent: warm.overall_stats.total_sent, statement });
    say(`${c.name}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  }

  const out = [['case', 'sent in period', 'median', 'max', `< ${TARGET_MS} ms`]];
  for (const r of results) {
    out.push([r.name, String(r.sent), `${median(r.times).toFixed(1)} ms`, `${Math.max(...r.times).toFixed(1)} ms`, Math.max(...r.times) < TARGET_MS ? 'PASS' : 'MISSED']);
  }
  process.stdout.write(`\nemail analytics bench: ${rows} queue rows over 400 days, ${TEMPLATES} templates, ${RUNS} runs per case after a warm-up, ${database.server}\n\n${table(out)}\n`);

  // EXPLAIN of the main statement for every case whose median misses (or all with BENCH_EXPLAIN=1).
  const dialect = (client.db as unknown as { dialect: { sqlToQuery(s: SQL): { sql: string; params: unknown[] } } }).dialect;
  for (const r of results) {
    if (median(r.times) < TARGET_MS && process.env['BENCH_EXPLAIN'] !== '1') continue;
    const q = dialect.sqlToQuery(r.statement);
    const plan = await client.sql.unsafe(`explain (analyze, buffers) ${q.sql}`, q.params as postgres.ParameterOrJSON<never>[]);
    process.stdout.write(`\nEXPLAIN (ANALYZE, BUFFERS) of the main statement, ${r.name}:\n${plan.map((p) => `  ${String(p['QUERY PLAN'])}`).join('\n')}\n`);
  }
  return 0;
}

runBench(main);
