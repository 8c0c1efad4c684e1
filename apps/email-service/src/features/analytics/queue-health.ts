// Whole-queue health against spec 001's operational thresholds (Limits): a backlog alert fires when more
// than 100 emails stay pending for 5 minutes (rows due for over 5 minutes, more than 100 of them); a
// pending email older than 1 hour is stuck. Shared by /health, the analytics answer, the admin
// queue-health route and the worker's warnings (workers/queue-alerts.ts).
import type { AnalyticsRepository } from './analytics.repository';

export const QUEUE_THRESHOLDS = { backlogPending: 100, backlogMinutes: 5, stuckMinutes: 60 } as const;

export interface QueueHealth {
  pending: number;
  processing: number;
  /** Pending rows due for more than `backlogMinutes`. */
  overdue: number;
  /** Pending rows due for more than `stuckMinutes`. */
  stuck: number;
  /** More than `backlogPending` rows have been due for over `backlogMinutes`. */
  backlog: boolean;
  /** When the longest-waiting pending row fell due (null: nothing pending). */
  oldestPendingSince: Date | null;
}

export async function readQueueHealth(analytics: Pick<AnalyticsRepository, 'queueCounts'>): Promise<QueueHealth> {
  const counts = await analytics.queueCounts();
  return {
    pending: counts.pending,
    processing: counts.processing,
    overdue: counts.overdue,
    stuck: counts.stuck,
    backlog: counts.overdue > QUEUE_THRESHOLDS.backlogPending,
    oldestPendingSince: counts.oldestPendingSince,
  };
}

/** The sentences an operator reads for the alerts that are on (empty when the queue is healthy). */
export function queueAlerts(health: QueueHealth): string[] {
  const alerts: string[] = [];
  if (health.backlog) {
    alerts.push(`backlog: ${health.overdue} emails have been pending for over ${QUEUE_THRESHOLDS.backlogMinutes} minutes (alert above ${QUEUE_THRESHOLDS.backlogPending})`);
  }
  if (health.stuck > 0) alerts.push(`stuck: ${health.stuck} pending ${health.stuck === 1 ? 'email is' : 'emails are'} older than ${QUEUE_THRESHOLDS.stuckMinutes} minutes`);
  return alerts;
}
