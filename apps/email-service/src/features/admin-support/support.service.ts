// Support insight from support_flags (dashboard user-support): the latest reports, how reporting moves over
// time, and where things stand. Read by admin and support alike; every figure is counted in SQL.
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { accounts, supportFlags, type Database, type FlagContentType, type FlagStatus } from '@story/db';
import { rowView } from '../admin/admin-views';

const f = supportFlags;
const n = sql<number>`count(*)::int`;

export function createSupportService({ db }: { db: Database }) {
  return {
    async recentFlags(query: { status?: FlagStatus; content_type?: FlagContentType; limit: number }) {
      const conditions = [query.status ? eq(f.status, query.status) : undefined, query.content_type ? eq(f.contentType, query.content_type) : undefined].filter((c) => c !== undefined);
      const rows = await db
        .select({ flag: f, reporter_email: accounts.email })
        .from(f)
        .leftJoin(accounts, eq(accounts.id, f.userId))
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(desc(f.createdAt), desc(f.id))
        .limit(query.limit);
      return { flags: rows.map((r) => ({ ...rowView(r.flag), reporter_email: r.reporter_email })) };
    },

    /** Per day over `days` (UTC): reports opened and resolved; and the reasons and content types reported. */
    async trends(days: number) {
      const since = sql`(date_trunc('day', now() at time zone 'UTC') - make_interval(days => ${days - 1}))`;
      const daily = await db.execute<{ date: string; opened: number; resolved: number }>(sql`
        select to_char(d, 'YYYY-MM-DD') as date,
               (select count(*) from support_flags where date_trunc('day', created_at at time zone 'UTC') = d)::int as opened,
               (select count(*) from support_flags where resolved_at is not null and date_trunc('day', resolved_at at time zone 'UTC') = d)::int as resolved
        from generate_series(${since}, date_trunc('day', now() at time zone 'UTC'), interval '1 day') as d
        order by d`);
      const sinceDate = new Date(Date.now() - days * 86_400_000);
      const byReason = await db.select({ reason: f.reason, count: n }).from(f).where(gte(f.createdAt, sinceDate)).groupBy(f.reason).orderBy(desc(n), f.reason).limit(20);
      const byType = await db.select({ content_type: f.contentType, count: n }).from(f).where(gte(f.createdAt, sinceDate)).groupBy(f.contentType).orderBy(desc(n));
      return { period_days: days, daily: [...daily], by_reason: byReason, by_content_type: byType };
    },

    /** Where support stands: counts per status, open backlog age, resolution time, most-reported content. */
    async summaries() {
      const byStatus = await db.select({ status: f.status, count: n }).from(f).groupBy(f.status);
      const [timing] = await db.execute<{ oldest_open_hours: number | null; avg_resolution_hours: number | null; resolved_7d: number; opened_7d: number }>(sql`
        select round(extract(epoch from now() - min(created_at) filter (where status in ('open', 'reviewing'))) / 3600.0, 1)::float8 as oldest_open_hours,
               round(avg(extract(epoch from resolved_at - created_at) / 3600.0) filter (where resolved_at is not null), 1)::float8 as avg_resolution_hours,
               (count(*) filter (where resolved_at >= now() - interval '7 days'))::int as resolved_7d,
               (count(*) filter (where created_at >= now() - interval '7 days'))::int as opened_7d
        from support_flags`);
      const mostReported = await db
        .select({ content_type: f.contentType, content_id: f.contentId, reports: n, open_reports: sql<number>`(count(*) filter (where ${f.status} in ('open', 'reviewing')))::int` })
        .from(f)
        .groupBy(f.contentType, f.contentId)
        .orderBy(desc(n))
        .limit(10);
      const counts = Object.fromEntries(['open', 'reviewing', 'resolved', 'dismissed'].map((s) => [s, byStatus.find((b) => b.status === s)?.count ?? 0]));
      return { by_status: counts, total: byStatus.reduce((sum, b) => sum + b.count, 0), ...timing!, most_reported: mostReported };
    },
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
