// The queue's operational thresholds in the log (spec 001 Limits): the worker reads the queue's health
// every minute and warns when a backlog builds up (more than 100 emails pending for over 5 minutes) or a
// pending email is older than an hour; while an alert stays on it is repeated every 15 minutes, and its
// end is logged once. The same figures are in /health and GET /api/admin/email/queue-health.
import { queueAlerts, type QueueHealth } from '../features/analytics/queue-health';

export interface QueueAlertLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface QueueAlerts {
  /** Read the health once and log what changed (or what is still wrong, every `repeatMs`). */
  check(): Promise<void>;
  start(intervalMs: number): void;
  stop(): void;
}

export function createQueueAlerts(deps: { read: () => Promise<QueueHealth>; log: QueueAlertLog; repeatMs?: number; now?: () => number }): QueueAlerts {
  const repeatMs = deps.repeatMs ?? 15 * 60_000;
  const now = deps.now ?? Date.now;
  let active: string[] = [];
  let lastWarnedAt = 0;
  let timer: NodeJS.Timeout | undefined;

  async function check(): Promise<void> {
    const health = await deps.read();
    const alerts = queueAlerts(health);
    const kinds = (list: string[]) => list.map((a) => a.split(':')[0]).join(',');
    const figures = { pending: health.pending, overdue: health.overdue, stuck: health.stuck, oldestPendingSince: health.oldestPendingSince?.toISOString() ?? null };
    if (alerts.length > 0 && (kinds(alerts) !== kinds(active) || now() - lastWarnedAt >= repeatMs)) {
      deps.log.warn({ ...figures, alerts }, `email queue: ${alerts.join('; ')}`);
      lastWarnedAt = now();
    } else if (alerts.length === 0 && active.length > 0) {
      deps.log.info(figures, 'email queue: back within the thresholds');
    }
    active = alerts;
  }

  return {
    check,
    start(intervalMs) {
      if (timer) return;
      const tick = () => void check().catch((err: unknown) => deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'email queue: health not read'));
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
