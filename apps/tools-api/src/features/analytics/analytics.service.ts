// Analytics events of one item (POST, by visitors' pages) and their aggregates (GET, admin only).
// Events only record: the counters on the content row are kept by the actions themselves (GET counts
// the view, /share the share, /export the export), so a client that reports an action it also
// performed through the API is not counted twice.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { toolsError } from '../../shared/errors';
import { canSee } from '../../shared/visibility';
import { findLiveContent } from '../../shared/content.repository';
import { createAnalyticsRepository } from './analytics.repository';
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
  const repo = createAnalyticsRepository(sql);
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
      const eventId = await repo.insertEvent(tool, row.id, input.eventType, data, { userId: caller.userId, sessionId: caller.sessionId || null, ipPrefix: caller.ipPrefix || null, userAgent: caller.userAgent }, at);
      return { eventId, recorded: true };
    },

    /** Aggregates of one item over the last `days` days (trend) and all time (totals). Works for deleted or expired items too: events outlive them. */
    async aggregate(tool: ToolRoute, contentId: string, days: number, now = new Date()): Promise<ContentAnalytics> {
      if (!isUuid(contentId)) throw toolsError.notFound();
      if (!(await repo.known(tool, contentId))) throw toolsError.notFound();

      const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const from = new Date(to.getTime() - (days - 1) * 86_400_000);
      const a = await repo.aggregate(tool, contentId, from, to);
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
