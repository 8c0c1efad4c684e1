// The SQL of analytics: one event in, and one item's aggregates out in a single statement over the
// (tool, content_id, created_at) index of tools_analytics. Raw postgres.js throughout.
import type postgres from 'postgres';
import { one, TOOL_ROUTES, type ToolRoute } from '@story/db';
import { toolTableName } from '../../shared/tool-param';
import { jsonb } from '../responses/pg-values';

export interface AggregateRow {
  views: number;
  unique_viewers: number;
  avg_time: string | null;
  shares: number;
  platforms: Record<string, number> | null;
  exports: number;
  formats: Record<string, number> | null;
  viewing_sessions: number;
  bounced: number;
  converted: number;
  trend: { date: string; count: number }[];
  responses: number;
  public_responses: number;
  avg_words: string | null;
}

export interface EventSource {
  userId: string | null;
  sessionId: string | null;
  ipPrefix: string | null;
  userAgent: string | null;
}

export function createAnalyticsRepository(sql: postgres.Sql) {
  return {
    async insertEvent(tool: ToolRoute, contentId: string, eventType: string, data: Record<string, unknown>, source: EventSource, at: Date): Promise<string> {
      const event = one(
        await sql<{ id: string }[]>`
        insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent, created_at)
        values (${tool}, ${contentId}, ${eventType}, ${jsonb(data)}::jsonb, ${source.userId}, ${source.sessionId}, ${source.ipPrefix}, ${source.userAgent}, ${at.toISOString()})
        returning id`,
      );
      return event.id;
    },

    /** Whether the item exists or once did (its events outlive it). */
    async known(tool: ToolRoute, contentId: string): Promise<boolean> {
      const [known] = await sql<{ known: boolean }[]>`
        select exists (select 1 from ${sql(toolTableName(tool))} where id = ${contentId})
            or exists (select 1 from tools_analytics where tool = ${tool} and content_id = ${contentId}) as known`;
      return !!known?.known;
    },

    /** Totals of all time and the daily view trend from `from` to `to` (UTC days). */
    async aggregate(tool: ToolRoute, contentId: string, from: Date, to: Date): Promise<AggregateRow> {
      // All from the (tool, content_id, created_at) index of tools_analytics; the conversion check probes
      // each content table's (session_id, created_at) index: did a viewer go on to generate anything?
      const generatedSince = (session: postgres.PendingQuery<postgres.Row[]>, since: postgres.PendingQuery<postgres.Row[]>) =>
        TOOL_ROUTES.map((t) => sql`select 1 from ${sql(toolTableName(t))} g where g.session_id = ${session} and g.created_at >= ${since}`).reduce(
          (acc, part) => sql`${acc} union all ${part}`,
        );
      const rows = await sql<AggregateRow[]>`
        with ev as (
          select event_type, event_data, session_id, user_id, ip_address, created_at
          from tools_analytics where tool = ${tool} and content_id = ${contentId}
        ),
        per_session as (
          select session_id, min(created_at) filter (where event_type = 'view') as first_view,
                 count(*) filter (where event_type = 'view') as views, count(*) filter (where event_type <> 'view') as actions
          from ev where session_id is not null group by session_id
        )
        select
          (select count(*) from ev where event_type = 'view')::int as views,
          (select count(distinct coalesce(session_id, user_id::text, ip_address)) from ev where event_type = 'view')::int as unique_viewers,
          (select avg((event_data->>'timeOnPage')::numeric) from ev where event_type = 'view' and jsonb_typeof(event_data->'timeOnPage') = 'number') as avg_time,
          (select count(*) from ev where event_type = 'share')::int as shares,
          (select jsonb_object_agg(platform, n) from (select coalesce(event_data->>'platform', 'link') as platform, count(*)::int as n from ev where event_type = 'share' group by 1) p) as platforms,
          (select count(*) from ev where event_type = 'export')::int as exports,
          (select jsonb_object_agg(format, n) from (select coalesce(event_data->>'format', 'unknown') as format, count(*)::int as n from ev where event_type = 'export' group by 1) f) as formats,
          (select count(*) from per_session where views > 0)::int as viewing_sessions,
          (select count(*) from per_session where views = 1 and actions = 0)::int as bounced,
          (select count(*) from per_session s where s.views > 0 and exists (${generatedSince(sql`s.session_id`, sql`s.first_view`)}))::int as converted,
          (select coalesce(jsonb_agg(jsonb_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'count', coalesce(c.n, 0)) order by d.day), '[]'::jsonb)
             from generate_series(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, interval '1 day') as d(day)
             left join (select date_trunc('day', created_at) as day, count(*)::int as n from ev where event_type = 'view' and created_at >= ${from.toISOString()} group by 1) c on c.day = d.day) as trend,
          (select count(*) from tools_responses where tool = ${tool} and prompt_id = ${contentId} and deleted_at is null)::int as responses,
          (select count(*) from tools_responses where tool = ${tool} and prompt_id = ${contentId} and deleted_at is null and is_public)::int as public_responses,
          (select avg(word_count) from tools_responses where tool = ${tool} and prompt_id = ${contentId} and deleted_at is null) as avg_words`;
      return one(rows);
    },
  };
}
