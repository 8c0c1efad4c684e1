// Admin users: list and search, detail, tier and role changes (spec 001 "Admin application reference",
// CONTRACTS §7). Every change locks the account row, writes it and its audit row in one transaction.
import type { AccountRole, SubscriptionTier } from '@story/db';
import { AppError, notFound } from '@story/http';
import type { AuditLog } from '../audit-log.repository';
import type { AuditMeta } from '../request-meta';
import type { AdminUsersRepository, UserFilters, UserRow } from './admin-users.repository';

export interface AdminUserView {
  id: string;
  email: string;
  role: AccountRole;
  email_verified: boolean;
  full_name: string | null;
  subscription_tier: SubscriptionTier;
  subscription_status: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

export function toAdminUser(row: UserRow): AdminUserView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    email_verified: row.emailConfirmedAt !== null,
    full_name: row.fullName,
    subscription_tier: row.subscriptionTier ?? 'free',
    subscription_status: row.subscriptionStatus,
    created_at: row.createdAt.toISOString(),
    last_sign_in_at: row.lastSignInAt?.toISOString() ?? null,
  };
}

export interface AdminUsersDeps {
  users: AdminUsersRepository;
  audit: AuditLog;
  /** ADMIN_EMAILS/SUPPORT_EMAILS: a listed account's role comes from the list (CONTRACTS §1), not from here. */
  roleLists: { adminEmails: readonly string[]; supportEmails: readonly string[] };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const userNotFound = (id: string) => notFound('User', { code: 'NOT_FOUND', details: { user_id: id } });

export function createAdminUsersService({ users, audit, roleLists }: AdminUsersDeps) {
  return {
    async list(filters: UserFilters) {
      const { rows, total } = await users.list(filters);
      return {
        users: rows.map(toAdminUser),
        pagination: { total, limit: filters.limit, offset: filters.offset, hasMore: filters.offset + rows.length < total },
      };
    },

    /** A page without the total count (the admin application's list): whether there is a next page instead. */
    async page(filters: UserFilters) {
      const { rows, hasMore } = await users.page(filters);
      return { users: rows.map(toAdminUser), pagination: { total: null, limit: filters.limit, offset: filters.offset, hasMore } };
    },

    async get(id: string) {
      const row = UUID.test(id) ? await users.find(id) : undefined;
      if (!row) throw userNotFound(id);
      const a = await users.activity(id);
      return {
        ...toAdminUser(row),
        activity: {
          campaigns: a.campaigns,
          stories: a.stories,
          wordCount: a.word_count,
          recordings: a.recordings,
          books: a.books,
          conversations: a.conversations,
          activeSessions: a.active_sessions,
        },
      };
    },

    /** Tier and/or role; the answer is the account after the change. */
    async update(actorId: string, id: string, change: { subscription_tier?: SubscriptionTier; role?: AccountRole }, meta: AuditMeta): Promise<AdminUserView> {
      if (change.subscription_tier === undefined && change.role === undefined) {
        throw new AppError('validation', 'Give subscription_tier or role', { details: { missing_fields: ['subscription_tier', 'role'] } });
      }
      if (!UUID.test(id)) throw userNotFound(id);
      return users.transaction(async (tx) => {
        const before = await users.find(id, tx, true);
        if (!before) throw userNotFound(id);
        if (change.role !== undefined && change.role !== before.role) {
          if (id === actorId) throw new AppError('validation', 'You cannot change your own role', { field: 'role' });
          // CONTRACTS §7: an unverified address cannot hold admin or support.
          if (change.role !== 'user' && before.emailConfirmedAt === null) {
            throw new AppError('validation', `An unverified account cannot hold role ${change.role}`, { field: 'role', details: { invalid_fields: { role: 'account email is not verified' } } });
          }
          const email = before.email.toLowerCase();
          if (roleLists.adminEmails.includes(email) || roleLists.supportEmails.includes(email)) {
            throw new AppError('conflict', 'This account’s role comes from ADMIN_EMAILS or SUPPORT_EMAILS; change the list instead', { field: 'role' });
          }
          await users.setRole(id, change.role, tx);
        }
        if (change.subscription_tier !== undefined && change.subscription_tier !== (before.subscriptionTier ?? 'free')) {
          await users.setTier(id, change.subscription_tier, tx);
        }
        const after = await users.find(id, tx);
        if (!after) throw userNotFound(id);
        const [b, a] = [toAdminUser(before), toAdminUser(after)];
        if (b.role !== a.role || b.subscription_tier !== a.subscription_tier) {
          await audit.record(
            {
              actorId,
              action: 'user.update',
              targetType: 'account',
              targetId: id,
              ipPrefix: meta.ipPrefix,
              requestId: meta.requestId,
              before: { role: b.role, subscription_tier: b.subscription_tier },
              after: { role: a.role, subscription_tier: a.subscription_tier },
            },
            tx,
          );
        }
        return a;
      });
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
