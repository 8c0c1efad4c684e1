// Whole-queue health (spec 001 Limits: a pending email older than 1 hour is stuck; more than 100
// pending for 5 minutes is a backlog), shared by the analytics answer and /health.
import { sql } from 'drizzle-orm';
import type { Database } from '@story/db';

export interface QueueHealth {
  pending: number;
  processing: number;
  /** Pending rows due for more than an hour. */
  stuck: number;
  /** More than 100 rows have been due for over 5 minutes. */
  backlog: boolean;
}

export async function readQueueHealth(db: Database): Promise<QueueHealth> {
  // Not limited to a period: the status index and the partial pending index answer it.
  // "Stuck" and "backlog" read scheduled_for, the time a pending row became due.
  const rows = (await db.execute(sql`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'processing')::int as processing,
           count(*) filter (where status = 'pending' and scheduled_for < now() - interval '1 hour')::int as stuck,
           count(*) filter (where status = 'pending' and scheduled_for < now() - interval '5 minutes')::int as overdue
    from email_send_queue where status in ('pending', 'processing')`)) as unknown as { pending: number; processing: number; stuck: number; overdue: number }[];
  const row = rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    processing: Number(row?.processing ?? 0),
    stuck: Number(row?.stuck ?? 0),
    backlog: Number(row?.overdue ?? 0) > 100,
  };
}
