// Analytics events of one item (POST, by visitors' pages) and their aggregates (GET, admin only).
// Events only record: the counters on the content row are kept by the actions themselves (GET counts
// the view, /share the share, /export the export), so a client that reports an action it also
// performed through the API is not counted twice.
import type postgres from 'postgres';
import { one, TOOL_ROUTES, type ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { toolsError } from '../../shared/errors';
import { toolTableName } from '../../shared/tool-param';
import { canSee } from '../../shared/visibility';
import { findLiveContent } from '../share/content-access';
import { jsonb } from '../responses/pg-values';
import { isUuid } from '@story/http';

export const CLIENT_EVENT_TYPES = ['view', 'share', 'export', 'response_created'] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** Reported timestamps may lag (offline pages, retries) but not by more than this, nor run ahead of the clock. */
export const MAX_EVENT_AGE_MS = 24 * 3_600_000;
export const MAX_EVENT_SKEW_MS = 5 * 60_000;
export const MAX_EVENT_DATA_BYTES = 4096;

export interface RecordEventInput {
  sessionId?: string;
  eventType: ClientEventType;
  eventData?: Record<string, unknown>;
  timestamp?: string;
}

export interface ContentAnalytics {
  period: { days: number; from: string; to: string };
  views: { total: number; unique: number; trend: { date: string; count: number }[] };
  shares: { total: number; platforms: Record<string, number> };
  responses: { total: number; public: number; averageWordCount: number };
  exports: { total: number; formats: Record<string, number> };
  engagement: { averageTimeOnPage: number; bounceRate: number; conversionRate: number };
}

/** Checks on the free-form event data: bounded size, and the fields the aggregates read must have the right type. */
export function validateEventData(data: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(data)) > MAX_EVENT_DATA_BYTES) throw toolsError.invalidInput('eventData', `eventData must be at most ${MAX_EVENT_DATA_BYTES} bytes of JSON`);
  const time = data['timeOnPage'];
  if (time !== undefined && (typeof time !== 'number' || !Number.isFinite(time) || time < 0 || time > 86_400)) {
    throw toolsError.invalidInput('eventData.timeOnPage', 'timeOnPage must be a number of seconds between 0 and 86400');
  }
  for (const key of ['platform', 'format', 'source']) {
    const value = data[key];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0 || value.length > 50)) throw toolsError.invalidInput(`eventData.${key}`, `${key} must be a short string`);
  }
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

export function createAnalyticsService({ sql }: { sql: postgres.Sql }) {
  return {
    async record(tool: ToolRoute, contentId: string, input: RecordEventInput, caller: ToolsCaller, now = new Date()): Promise<{ eventId: string; recorded: boolean }> {
      if (input.sessionId !== undefined && input.sessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
      const data = input.eventData ?? {};
      validateEventData(data);
      let at = now;
      if (input.timestamp !== undefined) {
        at = new Date(input.timestamp);
        if (at.getTime() > now.getTime() + MAX_EVENT_SKEW_MS || at.getTime() < now.getTime() - MAX_EVENT_AGE_MS) {
          throw toolsError.invalidInput('timestamp', 'timestamp must be within the last 24 hours');
        }
      }
      const row = await findLiveContent(sql, tool, contentId);
      if (!row || !canSee(row, caller)) throw toolsError.notFound();
      const event = one(
        await sql<{ id: string }[]>`
        insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent, created_at)
        values (${tool}, ${row.id}, ${input.eventType}, ${jsonb(data)}::jsonb, ${caller.userId}, ${caller.sessionId || null}, ${caller.ipPrefix || null}, ${caller.userAgent}, ${at.toISOString()})
        returning id`,
      );
      return { eventId: event.id, recorded: true };
    },

    /** Aggregates of one item over the last `days` days (trend) and all time (totals). Works for deleted or expired items too: events outlive them. */
    async aggregate(tool: ToolRoute, contentId: string, days: number, now = new Date()): Promise<ContentAnalytics> {
      if (!isUuid(contentId)) throw toolsError.notFound();
      const [known] = await sql<{ known: boolean }[]>`
        select exists (select 1 from ${sql(toolTableName(tool))} where id = ${contentId})
            or exists (select 1 from tools_analytics where tool = ${tool} and content_id = ${contentId}) as known`;
      if (!known?.known) throw toolsError.notFound();

      const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const from = new Date(to.getTime() - (days - 1) * 86_400_000);
      // All from the (tool, content_id, created_at) index of tools_analytics; the conversion check probes
      // each content table's (session_id, created_at) index: did a viewer go on to generate anything?
      const generatedSince = (session: postgres.PendingQuery<postgres.Row[]>, since: postgres.PendingQuery<postgres.Row[]>) =>
        TOOL_ROUTES.map((t) => sql`select 1 from ${sql(toolTableName(t))} g where g.session_id = ${session} and g.created_at >= ${since}`).reduce(
          (acc, part) => sql`${acc} union all ${part}`,
        );
      const rows = await sql<
        {
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
        }[]
      >`
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
      const a = one(rows);
      return {
        period: { days, from: from.toISOString(), to: new Date(to.getTime() + 86_400_000 - 1).toISOString() },
        views: { total: a.views, unique: a.unique_viewers, trend: a.trend },
        shares: { total: a.shares, platforms: a.platforms ?? {} },
        responses: { total: a.responses, public: a.public_responses, averageWordCount: a.avg_words === null ? 0 : Math.round(Number(a.avg_words) * 10) / 10 },
        exports: { total: a.exports, formats: a.formats ?? {} },
        engagement: {
          averageTimeOnPage: a.avg_time === null ? 0 : Math.round(Number(a.avg_time) * 10) / 10,
          bounceRate: a.viewing_sessions ? round4(a.bounced / a.viewing_sessions) : 0,
          conversionRate: a.viewing_sessions ? round4(a.converted / a.viewing_sessions) : 0,
        },
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
