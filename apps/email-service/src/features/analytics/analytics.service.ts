// Admin email analytics (spec 001 "Admin: analytics"), computed from email_send_queue rows created in the
// period (the repository reads them in one scan): rates, per-template and per-category breakdowns, queue health.
import { redactQueuedEmail } from '@story/email';
import type { AnalyticsRepository } from './analytics.repository';
import { QUEUE_THRESHOLDS, queueAlerts, readQueueHealth } from './queue-health';

export interface AnalyticsInput {
  period: number;
  template_id?: string;
  category?: string;
}

interface Counts {
  total_sent: number;
  total_delivered: number;
  total_opened: number;
  total_clicked: number;
}

/** A percentage with two decimals as the spec shows it; "0.00" when the base is 0. */
export const rate = (part: number, whole: number): string => (whole > 0 ? ((part / whole) * 100).toFixed(2) : '0.00');

const rates = (c: Counts) => ({
  delivery_rate: rate(c.total_delivered, c.total_sent),
  open_rate: rate(c.total_opened, c.total_sent),
  click_rate: rate(c.total_clicked, c.total_sent),
});

const num = (v: unknown) => Number(v ?? 0);

export function createAnalyticsService({ analytics }: { analytics: AnalyticsRepository }) {
  return {
    /** GET /api/admin/email/queue-health: the queue against spec 001's operational thresholds. */
    async queueHealth() {
      const health = await readQueueHealth(analytics);
      const alerts = queueAlerts(health);
      return {
        status: alerts.length > 0 ? ('alert' as const) : ('ok' as const),
        queue: {
          pending: health.pending,
          processing: health.processing,
          overdue: health.overdue,
          stuck: health.stuck,
          backlog: health.backlog,
          oldest_pending_since: health.oldestPendingSince?.toISOString() ?? null,
        },
        thresholds: { backlog_pending: QUEUE_THRESHOLDS.backlogPending, backlog_minutes: QUEUE_THRESHOLDS.backlogMinutes, stuck_minutes: QUEUE_THRESHOLDS.stuckMinutes },
        alerts,
      };
    },

    async get(input: AnalyticsInput) {
      const filter = { templateId: input.template_id, category: input.category };
      // The period is the last `period` UTC calendar days, today included.
      const today = new Date();
      today.setUTCHours(0, 0, 0, 0);
      const since = new Date(today.getTime() - (input.period - 1) * 86_400_000).toISOString();
      const main = await analytics.periodFigures(since, filter);
      const [templates, recent, queue] = await Promise.all([analytics.templates(filter), analytics.recent(input.period, filter), readQueueHealth(analytics)]);

      const o = main.overall;
      const overallCounts = { total_sent: num(o['sent']), total_delivered: num(o['delivered']), total_opened: num(o['opened']), total_clicked: num(o['clicked']) };
      const totalFailed = num(o['failed']);

      const byTemplate = new Map(main.per_template.map((r) => [r.template_id, r]));
      const templatePerformance = templates
        .map((tpl) => {
          const r = byTemplate.get(tpl.id);
          const c = { total_sent: num(r?.sent), total_delivered: num(r?.delivered), total_opened: num(r?.opened), total_clicked: num(r?.clicked) };
          return { id: tpl.id, name: tpl.name, display_name: tpl.display_name, category: tpl.category, ...c, ...rates(c) };
        })
        .sort((a, b) => b.total_sent - a.total_sent || a.name.localeCompare(b.name));

      const templateCount = new Map<string, number>();
      for (const tpl of templates) templateCount.set(tpl.category, (templateCount.get(tpl.category) ?? 0) + 1);
      const byCategory = new Map(main.per_category.map((r) => [r.category, r]));
      const categories = [...new Set([...templateCount.keys(), ...byCategory.keys()])].sort();
      const categoryBreakdown = categories.map((category) => {
        const r = byCategory.get(category);
        const c = { total_sent: num(r?.sent), total_delivered: num(r?.delivered), total_opened: num(r?.opened), total_clicked: num(r?.clicked) };
        return { category, ...c, template_count: templateCount.get(category) ?? 0, ...rates(c) };
      });

      return {
        period: input.period,
        overall_stats: { ...overallCounts, total_failed: totalFailed, ...rates(overallCounts), failure_rate: rate(totalFailed, overallCounts.total_sent + totalFailed) },
        template_performance: templatePerformance,
        daily_trends: main.daily.map((d) => ({ date: d.date, sent: num(d.sent), delivered: num(d.delivered), opened: num(d.opened), clicked: num(d.clicked) })),
        category_breakdown: categoryBreakdown,
        recent_activity: recent.map((r) => ({
          id: r.id,
          // An admin view of the queue never shows a credential (CONTRACTS §7), not even in an edited template's subject.
          subject: redactQueuedEmail({ subject: r.subject, html: '', text: null, variables: r.template_variables ?? {}, sensitiveVariables: r.sensitive_variables ?? [] }).subject,
          to_email: r.to_email,
          status: r.status,
          created_at: new Date(r.created_at).toISOString(),
          email_templates: r.name === null ? null : { name: r.name, display_name: r.display_name, category: r.category },
        })),
        queue_status: { pending: queue.pending, processing: queue.processing },
        alerts: { stuck: queue.stuck, backlog: queue.backlog },
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
