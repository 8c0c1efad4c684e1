// Whole-queue health (spec 001 Limits: a pending email older than 1 hour is stuck; more than 100
// pending for 5 minutes is a backlog), shared by the analytics answer and /health.
import type { AnalyticsRepository } from './analytics.repository';

export interface QueueHealth {
  pending: number;
  processing: number;
  /** Pending rows due for more than an hour. */
  stuck: number;
  /** More than 100 rows have been due for over 5 minutes. */
  backlog: boolean;
}

export async function readQueueHealth(analytics: Pick<AnalyticsRepository, 'queueCounts'>): Promise<QueueHealth> {
  const counts = await analytics.queueCounts();
  return { pending: counts.pending, processing: counts.processing, stuck: counts.stuck, backlog: counts.overdue > 100 };
}
