// The SQL of usage and activity figures, on postgres.js (counts and sums over the caller's rows). Days are
// the caller's calendar days in profiles.timezone: zone-less columns (stories, recordings) hold UTC wall
// time, so they are read `at time zone 'UTC'` first (spec 000 Memories rule 2), zoned ones directly.
import type { PendingQuery, Row, Sql } from 'postgres';
import { one } from '@story/db';

export interface ContentStats {
  campaigns: number;
  activeCampaigns: number;
  stories: number;
  words: number;
  recordings: number;
  videos: number;
  recordingMinutes: number;
  conversations: number;
  books: number;
  images: number;
  familyGroups: number;
}

export interface Totals {
  requests: number;
  costUsd: number;
  sttCostUsd: number;
  llmCostUsd: number;
  ttsCostUsd: number;
  tokens: number;
  audioSeconds: number;
  characters: number;
}

/** A metric: which table, what to add up, and whether its created_at has a zone. */
interface MetricSource {
  table: string;
  value: (sql: Sql) => PendingQuery<Row[]>;
  zoned: boolean;
}

export const METRICS = ['stories', 'words', 'recordings', 'recording_minutes', 'conversations', 'ai_requests', 'ai_cost_usd'] as const;
export type Metric = (typeof METRICS)[number];

const SOURCES: Record<Metric, MetricSource> = {
  stories: { table: 'stories', value: (sql) => sql`count(*)`, zoned: false },
  words: { table: 'stories', value: (sql) => sql`coalesce(sum(word_count), 0)`, zoned: false },
  recordings: { table: 'recordings', value: (sql) => sql`count(*)`, zoned: false },
  recording_minutes: { table: 'recordings', value: (sql) => sql`coalesce(sum(duration_seconds), 0) / 60.0`, zoned: false },
  conversations: { table: 'conversations', value: (sql) => sql`count(*)`, zoned: true },
  ai_requests: { table: 'ai_usage_logs', value: (sql) => sql`count(*)`, zoned: true },
  ai_cost_usd: { table: 'ai_usage_logs', value: (sql) => sql`coalesce(sum(stt_cost_usd + llm_cost_usd + tts_cost_usd), 0)`, zoned: true },
};

export function createAnalyticsRepository(sql: Sql) {
  /** created_at as an instant, whatever the column's type. */
  const instant = (zoned: boolean) => (zoned ? sql`created_at` : sql`(created_at at time zone 'UTC')`);

  return {
    async accountExists(userId: string): Promise<boolean> {
      return (await sql`select 1 from accounts where id = ${userId}`).length > 0;
    },

    async timezoneOf(userId: string): Promise<string> {
      const [row] = await sql<{ timezone: string }[]>`select timezone from profiles where id = ${userId}`;
      return row?.timezone ?? 'UTC';
    },

    /** AI usage of one account today, this month (UTC) and in all: requests and costs by capability. */
    async aiUsage(userId: string): Promise<Record<'daily' | 'monthly' | 'total', Totals>> {
      const period = (since: PendingQuery<Row[]> | null) => {
        const f = since ? sql`filter (where created_at >= ${since})` : sql``;
        return sql`json_build_object(
          'requests', count(*) ${f},
          'costUsd', coalesce(sum(stt_cost_usd + llm_cost_usd + tts_cost_usd) ${f}, 0)::float8,
          'sttCostUsd', coalesce(sum(stt_cost_usd) ${f}, 0)::float8,
          'llmCostUsd', coalesce(sum(llm_cost_usd) ${f}, 0)::float8,
          'ttsCostUsd', coalesce(sum(tts_cost_usd) ${f}, 0)::float8,
          'tokens', coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)) ${f}, 0)::float8,
          'audioSeconds', coalesce(sum(audio_seconds) ${f}, 0)::float8,
          'characters', coalesce(sum(characters) ${f}, 0)::float8)`;
      };
      return one(await sql<{ daily: Totals; monthly: Totals; total: Totals }[]>`
        select ${period(sql`date_trunc('day', now())`)} as daily,
               ${period(sql`date_trunc('month', now())`)} as monthly,
               ${period(null)} as total
        from ai_usage_logs where user_id = ${userId}`);
    },

    /** One value per calendar day from start to end (inclusive) in `tz`, days without rows as 0. */
    async dailySeries(userId: string, metric: Metric, start: string, end: string, tz: string): Promise<{ date: string; value: number }[]> {
      const src = SOURCES[metric];
      const at = instant(src.zoned);
      return sql<{ date: string; value: number }[]>`
        with days as (
          select d::date as day from generate_series(${start}::date, ${end}::date, interval '1 day') d
        ), counted as (
          select (${at} at time zone ${tz})::date as day, ${src.value(sql)} as value
          from ${sql(src.table)}
          where user_id = ${userId}
            and ${at} >= (${start}::date::timestamp at time zone ${tz})
            and ${at} < ((${end}::date + 1)::timestamp at time zone ${tz})
          group by 1
        )
        select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(counted.value, 0)::float8 as value
        from days left join counted using (day)
        order by days.day`;
    },

    /** Days (in `tz`) on which the caller wrote a story or made a recording, newest first, for streaks. */
    async activeDays(userId: string, tz: string): Promise<string[]> {
      const rows = await sql<{ date: string }[]>`
        select distinct to_char(((created_at at time zone 'UTC') at time zone ${tz})::date, 'YYYY-MM-DD') as date from stories where user_id = ${userId}
        union
        select distinct to_char(((created_at at time zone 'UTC') at time zone ${tz})::date, 'YYYY-MM-DD') from recordings where user_id = ${userId}
        order by 1 desc`;
      return rows.map((r) => r.date);
    },

    async today(tz: string): Promise<string> {
      return one(await sql<{ date: string }[]>`select to_char((now() at time zone ${tz})::date, 'YYYY-MM-DD') as date`).date;
    },

    /** Counts of everything the caller owns (GET /api/content/stats). */
    async contentStats(userId: string) {
      return one(await sql<ContentStats[]>`
        select
          (select count(*) from campaigns where user_id = ${userId})::int as campaigns,
          (select count(*) from campaigns where user_id = ${userId} and status = 'active')::int as "activeCampaigns",
          (select count(*) from stories where user_id = ${userId})::int as stories,
          (select coalesce(sum(word_count), 0) from stories where user_id = ${userId})::int as words,
          (select count(*) from recordings where user_id = ${userId} and media_type = 'audio')::int as recordings,
          (select count(*) from recordings where user_id = ${userId} and media_type = 'video')::int as videos,
          (select coalesce(sum(duration_seconds), 0) from recordings where user_id = ${userId})::float8 / 60 as "recordingMinutes",
          (select count(*) from conversations where user_id = ${userId})::int as conversations,
          (select count(*) from books where user_id = ${userId})::int as books,
          (select count(*) from images where user_id = ${userId})::int as images,
          (select count(*) from family_members where user_id = ${userId} and status = 'active')::int as "familyGroups"`);
    },

    /** When the database answers and how fresh the usage log is (GET /api/analytics/health). */
    async probe(): Promise<{ latestUsageAt: string | null }> {
      const [row] = await sql<{ latest: string | null }[]>`select to_char(max(created_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as latest from ai_usage_logs`;
      return { latestUsageAt: row?.latest ?? null };
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
