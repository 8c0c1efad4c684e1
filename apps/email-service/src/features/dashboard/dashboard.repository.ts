// Reads the admin pages need that no admin API service answers: the daily trends under the dashboard
// metrics, the audit log with the accounts' addresses, the account ids a flag's rollout preview walks, and
// the database facts of the system page. Everything else the pages show comes from the services themselves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inArray, sql, type SQL } from 'drizzle-orm';
import { accounts, resolveMigrationsFolder, type Database } from '@story/db';

export interface DailyTrend {
  date: string;
  signups: number;
  campaigns: number;
  stories: number;
  responses: number;
}

export interface AuditRow {
  id: string;
  createdAt: Date;
  action: string;
  actorId: string | null;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  impersonatedUserId: string | null;
  impersonatedEmail: string | null;
  ipPrefix: string | null;
  data: Record<string, unknown>;
}

const int = (v: unknown) => Number(v ?? 0);

export function createDashboardRepository(db: Database, options: { migrationsFolder?: string } = {}) {
  return {
    /**
     * New accounts, campaigns, stories and storyteller responses per UTC day over the last `days` days,
     * today included. Each count reads its table's created-at index over the window only, so the cost follows
     * the rows of the window, not the size of the table. stories keep UTC wall time without a zone (libs/db
     * _columns), so their window is compared as such.
     */
    async dailyTrends(days: number): Promise<DailyTrend[]> {
      const rows = await db.execute<{ date: string; signups: number; campaigns: number; stories: number; responses: number }>(sql`
        with days as (
          select d::date as day from generate_series((now() at time zone 'UTC')::date - ${days - 1}::int, (now() at time zone 'UTC')::date, interval '1 day') d
        ),
        since as (select ((now() at time zone 'UTC')::date - ${days - 1}::int)::timestamp as wall)
        select to_char(days.day, 'YYYY-MM-DD') as date,
               coalesce(a.n, 0)::int as signups, coalesce(c.n, 0)::int as campaigns, coalesce(s.n, 0)::int as stories, coalesce(m.n, 0)::int as responses
        from days
        left join (select (created_at at time zone 'UTC')::date as day, count(*) as n from accounts
                   where created_at >= (select wall from since) at time zone 'UTC' group by 1) a on a.day = days.day
        left join (select (created_at at time zone 'UTC')::date as day, count(*) as n from campaigns
                   where created_at >= (select wall from since) at time zone 'UTC' group by 1) c on c.day = days.day
        left join (select created_at::date as day, count(*) as n from stories
                   where created_at >= (select wall from since) group by 1) s on s.day = days.day
        left join (select (created_at at time zone 'UTC')::date as day, count(*) as n from conversation_messages
                   where role = 'user' and created_at >= (select wall from since) at time zone 'UTC' group by 1) m on m.day = days.day
        order by days.day`);
      return rows.map((r) => ({ date: r.date, signups: int(r.signups), campaigns: int(r.campaigns), stories: int(r.stories), responses: int(r.responses) }));
    },

    /** The admin audit log, newest first, with the actor's and the impersonated account's current address. */
    async auditLog(filter: { action?: string; actorId?: string; limit: number; offset: number }): Promise<{ rows: AuditRow[]; total: number }> {
      const conditions: SQL[] = [sql`true`];
      if (filter.action) conditions.push(sql`l.action like ${`${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
      if (filter.actorId) conditions.push(sql`l.actor_id = ${filter.actorId}`);
      const where = sql.join(conditions, sql` and `);
      const rows = await db.execute<{
        id: string;
        created_at: string | Date;
        action: string;
        actor_id: string | null;
        actor_email: string | null;
        target_type: string | null;
        target_id: string | null;
        impersonated_user_id: string | null;
        impersonated_email: string | null;
        ip_prefix: string | null;
        data: Record<string, unknown>;
        total: number;
      }>(sql`
        select l.id, l.created_at, l.action, l.actor_id, actor.email as actor_email, l.target_type, l.target_id,
               l.impersonated_user_id, imp.email as impersonated_email, l.ip_prefix, l.data, count(*) over () as total
        from admin_audit_log l
        left join accounts actor on actor.id = l.actor_id
        left join accounts imp on imp.id = l.impersonated_user_id
        where ${where}
        order by l.created_at desc, l.id desc
        limit ${filter.limit} offset ${filter.offset}`);
      return {
        rows: rows.map((r) => ({
          id: r.id,
          createdAt: new Date(r.created_at),
          action: r.action,
          actorId: r.actor_id,
          actorEmail: r.actor_email,
          targetType: r.target_type,
          targetId: r.target_id,
          impersonatedUserId: r.impersonated_user_id,
          impersonatedEmail: r.impersonated_email,
          ipPrefix: r.ip_prefix,
          data: r.data ?? {},
        })),
        total: int(rows[0]?.total),
      };
    },

    /** Every account id (the population a rollout is evaluated over), in id order so a preview's sample is stable. */
    async accountIds(): Promise<string[]> {
      const rows = await db.execute<{ id: string }>(sql`select id from accounts order by id`);
      return rows.map((r) => r.id);
    },

    /** Account ids by (lower-cased) address, for override lines written as emails. */
    async accountIdsByEmails(emails: string[]): Promise<Map<string, string>> {
      if (emails.length === 0) return new Map();
      const rows = await db.select({ id: accounts.id, email: accounts.email }).from(accounts).where(inArray(accounts.email, emails));
      return new Map(rows.map((r) => [r.email, r.id]));
    },

    /** Addresses and roles of a few accounts, for samples and the impersonation list. */
    async accountsByIds(ids: string[]): Promise<Map<string, { email: string; role: string }>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: accounts.id, email: accounts.email, role: accounts.role }).from(accounts).where(inArray(accounts.id, ids));
      return new Map(rows.map((r) => [r.id, { email: r.email, role: r.role }]));
    },

    /** The system page: server version, database size, the largest tables, and migrations recorded vs shipped. */
    async systemFacts() {
      const [server] = await db.execute<{ version: string; size: string; started: string | Date }>(sql`
        select current_setting('server_version') as version, pg_size_pretty(pg_database_size(current_database())) as size, pg_postmaster_start_time() as started`);
      const tables = await db.execute<{ name: string; rows: number; size: string }>(sql`
        select c.relname as name, greatest(c.reltuples, 0)::bigint as rows, pg_size_pretty(pg_total_relation_size(c.oid)) as size
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
        order by pg_total_relation_size(c.oid) desc limit 12`);
      const folder = options.migrationsFolder ?? resolveMigrationsFolder();
      const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
      const [applied] = await db.execute<{ last: string | number; count: number }>(sql`
        select coalesce(max(created_at), 0)::bigint as last, count(*)::int as count from drizzle.__drizzle_migrations`);
      const last = Number(applied?.last ?? 0);
      return {
        version: server?.version ?? null,
        size: server?.size ?? null,
        startedAt: server?.started ? new Date(server.started) : null,
        tables: tables.map((t) => ({ name: t.name, rows: int(t.rows), size: t.size })),
        migrations: { shipped: journal.entries.length, applied: int(applied?.count), pending: journal.entries.filter((e) => e.when > last).map((e) => e.tag) },
      };
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
