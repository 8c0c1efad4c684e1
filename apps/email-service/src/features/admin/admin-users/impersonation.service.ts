// Time-limited impersonation (spec 001 Authentication 5, CONTRACTS §7). Start: an admin gives a reason and
// gets a session for the user whose access token carries act: {sub: <admin id>}, lives at most 15
// minutes, has no refresh token and is refused on every admin route. Admin and support accounts are never
// impersonated. End: the end route (any admin), or the session's expiry or sign-out, which sweepEnded()
// records; both ends write `user.impersonate.end` to admin_audit_log, the start `user.impersonate.start`.
import type { TokenSigner } from '@story/auth';
import { AppError, notFound } from '@story/http';
import type { AuditLog } from '../audit-log.repository';
import type { AuditMeta } from '../request-meta';
import type { AdminUsersRepository } from './admin-users.repository';
import { userNotFound } from './admin-users.service';
import type { ImpersonationRepository, ImpersonationRow } from './impersonation.repository';

export const IMPERSONATION_TTL_SECONDS = 15 * 60;

export interface ImpersonationView {
  id: string;
  adminId: string;
  userId: string;
  reason: string;
  startedAt: string;
  expiresAt: string;
  endedAt: string | null;
  active: boolean;
}

export function toImpersonationView(row: ImpersonationRow, now = new Date()): ImpersonationView {
  return {
    id: row.id,
    adminId: row.adminId,
    userId: row.userId,
    reason: row.reason,
    startedAt: row.startedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    active: row.endedAt === null && row.expiresAt > now,
  };
}

export interface ImpersonationDeps {
  users: Pick<AdminUsersRepository, 'find' | 'transaction'>;
  impersonations: ImpersonationRepository;
  audit: AuditLog;
  tokens: Pick<TokenSigner, 'sign'>;
  ttlSeconds?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createImpersonationService({ users, impersonations, audit, tokens, ttlSeconds = IMPERSONATION_TTL_SECONDS }: ImpersonationDeps) {
  let sweepTimer: NodeJS.Timeout | undefined;
  return {
    /**
     * Start one. With `oneAtATime` (the admin application's form, which a browser may post again on reload) an
     * admin already acting as this user is refused with 409 IMPERSONATION_ACTIVE instead of getting a second
     * session; the check runs with the account row locked, so two posts at once start one.
     */
    async start(adminId: string, userId: string, reason: string, meta: AuditMeta, options: { oneAtATime?: boolean } = {}) {
      if (!UUID.test(userId)) throw userNotFound(userId);
      return users.transaction(async (tx) => {
        const target = await users.find(userId, tx, true);
        if (!target) throw userNotFound(userId);
        if (target.role !== 'user') {
          throw new AppError('forbidden', 'Admin and support accounts cannot be impersonated', { code: 'INSUFFICIENT_PERMISSIONS', details: { user_id: userId, role: target.role } });
        }
        const open = options.oneAtATime ? await impersonations.activeFor(adminId, userId, tx) : undefined;
        if (open) {
          throw new AppError('conflict', 'You are already acting as this user; its token was shown once when it started. End that impersonation to start another', {
            code: 'IMPERSONATION_ACTIVE',
            details: { impersonation_id: open.id, expires_at: open.expiresAt.toISOString() },
          });
        }
        // The session row and the token share one deadline, read from one clock.
        const startedAt = new Date();
        const expiresAt = new Date(startedAt.getTime() + ttlSeconds * 1000);
        const sessionId = await impersonations.insertSession({ userId, ipPrefix: meta.ipPrefix, userAgent: 'admin-impersonation', expiresAt }, tx);
        const row = await impersonations.insert({ adminId, userId, sessionId, reason, startedAt, expiresAt }, tx);
        await audit.record(
          {
            actorId: adminId,
            action: 'user.impersonate.start',
            targetType: 'account',
            targetId: userId,
            impersonatedUserId: userId,
            ipPrefix: meta.ipPrefix,
            requestId: meta.requestId,
            before: null,
            after: { impersonationId: row.id, reason, expiresAt: expiresAt.toISOString() },
          },
          tx,
        );
        const access = await tokens.sign({ userId, email: target.email, role: target.role, sessionId, actorId: adminId, ttlSeconds });
        return {
          impersonation: toImpersonationView(row),
          // CONTRACTS §7: no refresh token; the session cannot outlive its 15 minutes.
          session: { access_token: access.token, token_type: 'bearer' as const, expires_in: access.expiresIn, expires_at: access.expiresAt, refresh_token: null },
        };
      });
    },

    /** End an impersonation now: its session is revoked everywhere, the end is audit-logged. */
    async end(adminId: string, impersonationId: string, meta: AuditMeta): Promise<ImpersonationView> {
      const missing = () => notFound('Impersonation', { code: 'NOT_FOUND', details: { impersonation_id: impersonationId } });
      if (!UUID.test(impersonationId)) throw missing();
      return users.transaction(async (tx) => {
        const row = await impersonations.findForUpdate(impersonationId, tx);
        if (!row) throw missing();
        if (row.endedAt !== null) throw new AppError('conflict', 'This impersonation has already ended', { details: { ended_at: row.endedAt.toISOString() } });
        const ended = await impersonations.markEnded(row.id, row.sessionId, tx);
        await audit.record(
          {
            actorId: adminId,
            action: 'user.impersonate.end',
            targetType: 'account',
            targetId: row.userId,
            impersonatedUserId: row.userId,
            ipPrefix: meta.ipPrefix,
            requestId: meta.requestId,
            before: { impersonationId: row.id, endedAt: null },
            after: { impersonationId: row.id, endedAt: ended.endedAt?.toISOString() ?? null, endedBy: 'admin' },
          },
          tx,
        );
        return toImpersonationView(ended);
      });
    },

    async list(query: { active: boolean; limit: number; offset: number }): Promise<ImpersonationView[]> {
      await impersonations.sweepEnded();
      return (await impersonations.list(query)).map((r) => toImpersonationView(r));
    },

    /** Record the end of impersonations that expired or signed out (run on an interval and before listing). */
    sweepEnded: () => impersonations.sweepEnded(),

    /** Sweep on an interval (main.ts's workers); stopSweep() runs before the app closes its database. */
    startSweep(intervalMs: number, onError: (err: unknown) => void): void {
      if (sweepTimer) return;
      sweepTimer = setInterval(() => void impersonations.sweepEnded().catch(onError), intervalMs);
      sweepTimer.unref();
    },
    stopSweep(): void {
      clearInterval(sweepTimer);
      sweepTimer = undefined;
    },
  };
}

export type ImpersonationService = ReturnType<typeof createImpersonationService>;
