// Impersonation rows (admin_impersonations) and the auth session each one runs on. The session row is
// what every service checks on every request, so ending an impersonation = revoking its session.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { adminImpersonations, authSessions, one, type Database, type DbOrTx } from '@story/db';

export type ImpersonationRow = typeof adminImpersonations.$inferSelect;

export function createImpersonationRepository(db: Database) {
  return {
    async insertSession(values: { userId: string; ipPrefix: string | null; userAgent: string | null; expiresAt: Date }, tx: DbOrTx = db): Promise<string> {
      return one(await tx.insert(authSessions).values(values).returning({ id: authSessions.id })).id;
    },

    async insert(values: { adminId: string; userId: string; sessionId: string; reason: string; startedAt: Date; expiresAt: Date }, tx: DbOrTx = db): Promise<ImpersonationRow> {
      return one(await tx.insert(adminImpersonations).values(values).returning());
    },

    /** An impersonation of this user by this admin that has neither ended nor expired, if there is one. */
    async activeFor(adminId: string, userId: string, tx: DbOrTx = db): Promise<ImpersonationRow | undefined> {
      const [row] = await tx
        .select()
        .from(adminImpersonations)
        .where(and(eq(adminImpersonations.adminId, adminId), eq(adminImpersonations.userId, userId), isNull(adminImpersonations.endedAt), sql`${adminImpersonations.expiresAt} > now()`))
        .limit(1);
      return row;
    },

    async findForUpdate(id: string, tx: DbOrTx = db): Promise<ImpersonationRow | undefined> {
      const [row] = await tx.select().from(adminImpersonations).where(eq(adminImpersonations.id, id)).for('update');
      return row;
    },

    async markEnded(id: string, sessionId: string | null, tx: DbOrTx = db): Promise<ImpersonationRow> {
      if (sessionId) {
        await tx
          .update(authSessions)
          .set({ revokedAt: new Date(), revokedReason: 'impersonation_ended' })
          .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
      }
      return one(await tx.update(adminImpersonations).set({ endedAt: new Date() }).where(eq(adminImpersonations.id, id)).returning());
    },

    async list({ active, limit, offset }: { active: boolean; limit: number; offset: number }, tx: DbOrTx = db): Promise<ImpersonationRow[]> {
      return tx
        .select()
        .from(adminImpersonations)
        .where(active ? isNull(adminImpersonations.endedAt) : undefined)
        .orderBy(desc(adminImpersonations.startedAt))
        .limit(limit)
        .offset(offset);
    },

    /**
     * Close every impersonation that ended without the end route: expired (ended_at = expires_at), whose
     * session was revoked (the user token signed out: ended_at = the revocation), or whose session is gone
     * (an account deleted: ended now). One statement, so the ended_at stamp and its audit row commit
     * together; a row another replica's sweep closed first is skipped by the `ended_at is null` re-check
     * after its lock. The audit row carries the email snapshots of the impersonation row (CONTRACTS §7),
     * which stay true after either account is deleted.
     */
    async sweepEnded(tx: DbOrTx = db): Promise<number> {
      const rows = await tx.execute<{ id: string }>(sql`
        with ended as (
          update admin_impersonations i
          set ended_at = least(i.expires_at, coalesce(s.revoked_at, i.expires_at), now())
          from admin_impersonations i2
          left join auth_sessions s on s.id = i2.session_id
          where i2.id = i.id
            and i.ended_at is null
            and (i.expires_at <= now() or s.revoked_at is not null or s.id is null)
          returning i.id, i.admin_id, i.admin_email, i.user_id, i.user_email, i.ended_at, i.expires_at, s.revoked_at, s.id is null as session_gone
        )
        insert into admin_audit_log (actor_id, actor_email, action, target_type, target_id, target_email, impersonated_user_id, impersonated_user_email, data)
        select admin_id, admin_email, 'user.impersonate.end', 'account', user_id::text, user_email, user_id, user_email,
          jsonb_build_object(
            'before', jsonb_build_object('impersonationId', id, 'endedAt', null),
            'after', jsonb_build_object('impersonationId', id, 'endedAt', ended_at,
              'endedBy', case when session_gone and expires_at > ended_at then 'session_gone'
                              when revoked_at is not null and revoked_at < expires_at then 'signout' else 'expiry' end))
        from ended
        returning id`);
      return rows.length;
    },
  };
}

export type ImpersonationRepository = ReturnType<typeof createImpersonationRepository>;
