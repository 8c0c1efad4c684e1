// SQL of the admin analytics and the queue health (Drizzle's sql over the shared connection). The statements
// are raw SQL on purpose: one aggregate CTE per request (see periodFigures), where the query builder would
// read the period once per section.
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '@story/db';

/** What the analytics are narrowed to: one template and/or one category. */
export interface AnalyticsFilter {
  templateId?: string;
  category?: string;
}

interface Figures {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
}

export interface PeriodFigures {
  overall: Record<string, number>;
  daily: ({ date: string } & Figures)[];
  per_template: ({ template_id: string } & Figures)[];
  per_category: ({ category: string } & Figures)[];
}

export interface TemplateRef {
  id: string;
  name: string;
  display_name: string | null;
  category: string;
}

export interface RecentRow {
  id: string;
  subject: string;
  /** For the redaction of a credential the subject might hold (CONTRACTS §7). */
  template_variables: Record<string, unknown>;
  sensitive_variables: string[];
  to_email: string;
  status: string;
  created_at: Date | string;
  name: string | null;
  display_name: string | null;
  category: string | null;
}

/** Whole-queue counts by state; stuck and overdue read scheduled_for, the time a pending row became due. */
export interface QueueCounts {
  pending: number;
  processing: number;
  stuck: number;
  overdue: number;
  oldestPendingSince: Date | null;
}

function filtersOf(filter: AnalyticsFilter) {
  return {
    templateFilter: filter.templateId ? sql`and q.template_id = ${filter.templateId}` : sql``,
    // Category of a row: its template's now, else the copy taken at enqueue time.
    categoryFilter: filter.category ? sql`and coalesce(t.category, q.category) = ${filter.category}` : sql``,
  };
}

export function createAnalyticsRepository(db: Database) {
  return {
    /**
     * Overall, per-day, per-template and per-category figures of queue rows created since `since`. One
     * statement scans the period once (created_at index) into a per-template, per-category, per-day aggregate
     * CTE; every section is read from that small aggregate, so the cost is one range scan however many
     * sections the page shows. `since` is passed as a value: hidden in a subquery, the planner guessed a third
     * of the table, scanned all of it and paid ~180 ms of JIT compilation per call (bench/email/analytics.ts).
     */
    async periodFigures(since: string, filter: AnalyticsFilter): Promise<PeriodFigures> {
      const { templateFilter, categoryFilter } = filtersOf(filter);
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
      })) as unknown as PeriodFigures[];
      return main!;
    },

    /** The templates the filter names (all of them without one), by name. */
    async templates(filter: AnalyticsFilter, tx: DbOrTx = db): Promise<TemplateRef[]> {
      const templatesWhere = sql.join(
        [sql`true`, filter.templateId ? sql`t.id = ${filter.templateId}` : sql`true`, filter.category ? sql`t.category = ${filter.category}` : sql`true`],
        sql` and `,
      );
      return (await tx.execute(sql`select t.id, t.name, t.display_name, t.category from email_templates t where ${templatesWhere} order by t.name`)) as unknown as TemplateRef[];
    },

    /** The 20 newest queue rows of the last `period` UTC days, with their template. */
    async recent(period: number, filter: AnalyticsFilter, tx: DbOrTx = db): Promise<RecentRow[]> {
      const { templateFilter, categoryFilter } = filtersOf(filter);
      // Newest first over the created_at index; the period bound keeps it consistent with the totals.
      return (await tx.execute(sql`
          select q.id, q.subject, q.template_variables, q.sensitive_variables, q.to_email, q.status, q.created_at, t.name, t.display_name, t.category
          from email_send_queue q
          left join email_templates t on t.id = q.template_id
          where q.created_at >= (date_trunc('day', now() at time zone 'UTC') - make_interval(days => ${period - 1})) at time zone 'UTC'
            ${templateFilter} ${categoryFilter}
          order by q.created_at desc, q.id desc
          limit 20`)) as unknown as RecentRow[];
    },

    /** Counts over the whole queue, not a period: the status index and the partial pending index answer it. */
    async queueCounts(tx: DbOrTx = db): Promise<QueueCounts> {
      const rows = (await tx.execute(sql`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'processing')::int as processing,
           count(*) filter (where status = 'pending' and scheduled_for < now() - interval '1 hour')::int as stuck,
           count(*) filter (where status = 'pending' and scheduled_for < now() - interval '5 minutes')::int as overdue,
           min(scheduled_for) filter (where status = 'pending' and scheduled_for <= now()) as oldest
    from email_send_queue where status in ('pending', 'processing')`)) as unknown as (Omit<QueueCounts, 'oldestPendingSince'> & { oldest: string | Date | null })[];
      const row = rows[0];
      return {
        pending: Number(row?.pending ?? 0),
        processing: Number(row?.processing ?? 0),
        stuck: Number(row?.stuck ?? 0),
        overdue: Number(row?.overdue ?? 0),
        oldestPendingSince: row?.oldest ? new Date(row.oldest) : null,
      };
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
