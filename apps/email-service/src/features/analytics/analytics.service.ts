// Admin email analytics (spec 001 "Admin: analytics"), computed from email_send_queue rows created in the
// period. One statement scans the period once (created_at index) into a per-template, per-category,
// per-day aggregate CTE; overall, per-template, per-day and per-category figures are all read from that
// small aggregate, so the cost is one range scan however many sections the page shows.
import { sql } from 'drizzle-orm';
import type { Database } from '@story/db';
import { readQueueHealth } from './queue-health';

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

export function createAnalyticsService({ db }: { db: Database }) {
  return {
    async get(input: AnalyticsInput) {
      const templateFilter = input.template_id ? sql`and q.template_id = ${input.template_id}` : sql``;
      // Category of a row: its template's now, else the copy taken at enqueue time.
      const categoryFilter = input.category ? sql`and coalesce(t.category, q.category) = ${input.category}` : sql``;
      const templatesWhere = sql.join(
        [sql`true`, input.template_id ? sql`t.id = ${input.template_id}` : sql`true`, input.category ? sql`t.category = ${input.category}` : sql`true`],
        sql` and `,
      );

      // The period is the last `period` UTC calendar days, today included. Its start is computed here and
      // passed as a value: hidden in a subquery, the planner guessed a third of the table, scanned all of it
      // and paid ~180 ms of JIT compilation per call (bench/email/analytics.ts).
      const today = new Date();
      today.setUTCHours(0, 0, 0, 0);
      const since = new Date(today.getTime() - (input.period - 1) * 86_400_000).toISOString();
      const [main] = (await db.transaction(async (tx) => {
        // JIT pays off for hour-long reports, not for a dashboard query answered in milliseconds.
        await tx.execute(sql`set local jit = off`);
        return tx.execute(sql`
        with bounds as (
          select ${since}::timestamptz as since
        ),
        agg as (
          select q.template_id, coalesce(t.category, q.category) as category, (q.created_at at time zone 'UTC')::date as day,
                 count(*) filter (where q.status = 'sent')::int as sent,
                 count(q.delivered_at)::int as delivered,
                 count(q.opened_at)::int as opened,
                 count(q.clicked_at)::int as clicked,
                 count(*) filter (where q.status = 'failed')::int as failed
          from email_send_queue q
          left join email_templates t on t.id = q.template_id
          where q.created_at >= ${since}::timestamptz ${templateFilter} ${categoryFilter}
          group by 1, 2, 3
        ),
        days as (
          select d::date as day
          from generate_series((select since from bounds) at time zone 'UTC', now() at time zone 'UTC', interval '1 day') d
        )
        select
          (select json_build_object('sent', coalesce(sum(sent), 0), 'delivered', coalesce(sum(delivered), 0), 'opened', coalesce(sum(opened), 0),
                                    'clicked', coalesce(sum(clicked), 0), 'failed', coalesce(sum(failed), 0)) from agg) as overall,
          (select coalesce(json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'sent', coalesce(a.sent, 0), 'delivered', coalesce(a.delivered, 0),
                                    'opened', coalesce(a.opened, 0), 'clicked', coalesce(a.clicked, 0)) order by d.day), '[]'::json)
             from days d
             left join (select day, sum(sent) as sent, sum(delivered) as delivered, sum(opened) as opened, sum(clicked) as clicked from agg group by day) a on a.day = d.day) as daily,
          (select coalesce(json_agg(json_build_object('template_id', template_id, 'sent', sent, 'delivered', delivered, 'opened', opened, 'clicked', clicked)), '[]'::json)
             from (select template_id, sum(sent) as sent, sum(delivered) as delivered, sum(opened) as opened, sum(clicked) as clicked from agg where template_id is not null group by template_id) x) as per_template,
          (select coalesce(json_agg(json_build_object('category', category, 'sent', sent, 'delivered', delivered, 'opened', opened, 'clicked', clicked)), '[]'::json)
             from (select category, sum(sent) as sent, sum(delivered) as delivered, sum(opened) as opened, sum(clicked) as clicked from agg where category is not null group by category) x) as per_category
      `);
      })) as unknown as {
        overall: Record<string, number>;
        daily: { date: string; sent: number; delivered: number; opened: number; clicked: number }[];
        per_template: { template_id: string; sent: number; delivered: number; opened: number; clicked: number }[];
        per_category: { category: string; sent: number; delivered: number; opened: number; clicked: number }[];
      }[];

      const [templates, recent, queue] = await Promise.all([
        db.execute(sql`select t.id, t.name, t.display_name, t.category from email_templates t where ${templatesWhere} order by t.name`) as unknown as Promise<
          { id: string; name: string; display_name: string | null; category: string }[]
        >,
        // Newest first over the created_at index; the period bound keeps it consistent with the totals.
        db.execute(sql`
          select q.id, q.subject, q.to_email, q.status, q.created_at, t.name, t.display_name, t.category
          from email_send_queue q
          left join email_templates t on t.id = q.template_id
          where q.created_at >= (date_trunc('day', now() at time zone 'UTC') - make_interval(days => ${input.period - 1})) at time zone 'UTC'
            ${templateFilter} ${categoryFilter}
          order by q.created_at desc, q.id desc
          limit 20`) as unknown as Promise<
          { id: string; subject: string; to_email: string; status: string; created_at: Date | string; name: string | null; display_name: string | null; category: string | null }[]
        >,
        readQueueHealth(db),
      ]);

      const o = main!.overall;
      const overallCounts = { total_sent: num(o['sent']), total_delivered: num(o['delivered']), total_opened: num(o['opened']), total_clicked: num(o['clicked']) };
      const totalFailed = num(o['failed']);

      const byTemplate = new Map(main!.per_template.map((r) => [r.template_id, r]));
      const templatePerformance = templates
        .map((tpl) => {
          const r = byTemplate.get(tpl.id);
          const c = { total_sent: num(r?.sent), total_delivered: num(r?.delivered), total_opened: num(r?.opened), total_clicked: num(r?.clicked) };
          return { id: tpl.id, name: tpl.name, display_name: tpl.display_name, category: tpl.category, ...c, ...rates(c) };
        })
        .sort((a, b) => b.total_sent - a.total_sent || a.name.localeCompare(b.name));

      const templateCount = new Map<string, number>();
      for (const tpl of templates) templateCount.set(tpl.category, (templateCount.get(tpl.category) ?? 0) + 1);
      const byCategory = new Map(main!.per_category.map((r) => [r.category, r]));
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
        daily_trends: main!.daily.map((d) => ({ date: d.date, sent: num(d.sent), delivered: num(d.delivered), opened: num(d.opened), clicked: num(d.clicked) })),
        category_breakdown: categoryBreakdown,
        recent_activity: recent.map((r) => ({
          id: r.id,
          subject: r.subject,
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
