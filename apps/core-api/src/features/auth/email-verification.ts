// Email verification (CONTRACTS §7): a 256-bit random token per email, single use, valid 24 hours; only
// its sha256 is stored, with the account and the address it was sent to. Verifying sets
// accounts.email_confirmed_at and the role the lists give a verified address (roleForAccount), so the
// next refresh or sign-in carries it. Resends: 3 per hour per account, counted in PostgreSQL so the
// limit holds across replicas and restarts.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accounts, emailVerificationTokens, one, profiles, type AccountRole, type Database, type DbOrTx } from '@story/db';
import { triggerEmailVerification } from '@story/email';
import { AppError } from '@story/http';
import { toUser } from './auth.schemas';

export const VERIFICATION_TTL_HOURS = 24;
export const RESENDS_PER_HOUR = 3;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface EmailVerificationDeps {
  db: Database;
  /** The web application: the link is `${appUrl}/verify-email?token=<token>`. */
  appUrl: string;
  roleOf: (account: { email: string; emailVerified: boolean }) => AccountRole;
}

const gone = (message: string) => new AppError('gone', message, { field: 'token' });

export function createEmailVerification({ db, appUrl, roleOf }: EmailVerificationDeps) {
  /** Make a token, keep its hash, and queue the verify_email message with the link (in the caller's transaction). */
  async function send(tx: DbOrTx, input: { userId: string; email: string; userName: string; source: 'signup' | 'resend' }): Promise<boolean> {
    const token = randomBytes(32).toString('base64url');
    const row = one(
      await tx
        .insert(emailVerificationTokens)
        .values({
          userId: input.userId,
          email: input.email,
          tokenHash: sha256(token),
          source: input.source,
          expiresAt: sql`now() + make_interval(hours => ${VERIFICATION_TTL_HOURS})`,
        })
        .returning({ id: emailVerificationTokens.id }),
    );
    const result = await triggerEmailVerification(tx, input.userId, {
      verification_url: `${appUrl}/verify-email?token=${token}`,
      user_name: input.userName,
      idempotency_key: `verify-email:${row.id}`,
    });
    return result.queued > 0;
  }

  return {
    send,

    /**
     * Spend a token. Unknown (forged) → 400; used, expired, or sent to an address the account no longer
     * has → 410; a signed-in caller presenting another account's token → 403. Nothing changes on refusal.
     * Verifying spends every other open token of the account too.
     */
    async verify(token: string, callerId?: string): Promise<{ user: ReturnType<typeof toUser> }> {
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({
            userId: emailVerificationTokens.userId,
            sentTo: emailVerificationTokens.email,
            usedAt: emailVerificationTokens.usedAt,
            expired: sql<boolean>`${emailVerificationTokens.expiresAt} <= now()`,
            email: accounts.email,
            emailConfirmedAt: accounts.emailConfirmedAt,
          })
          .from(emailVerificationTokens)
          .innerJoin(accounts, eq(accounts.id, emailVerificationTokens.userId))
          .where(eq(emailVerificationTokens.tokenHash, sha256(token)))
          .for('update', { of: emailVerificationTokens });
        if (!found) throw new AppError('validation', 'This verification link is not valid', { field: 'token' });
        // A token only ever verifies the account it was made for, whoever presents it.
        if (callerId !== undefined && callerId !== found.userId) {
          throw new AppError('forbidden', 'This verification link belongs to another account', { field: 'token' });
        }
        if (found.usedAt) throw gone('This verification link has already been used');
        if (found.expired) throw gone('This verification link has expired; ask for a new one');
        if (found.sentTo !== found.email) throw gone('This verification link was sent to a different address');

        const role = roleOf({ email: found.email, emailVerified: true });
        await tx
          .update(emailVerificationTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(emailVerificationTokens.userId, found.userId), isNull(emailVerificationTokens.usedAt)));
        await tx
          .update(accounts)
          .set({ emailConfirmedAt: found.emailConfirmedAt ?? new Date(), role, updatedAt: new Date() })
          .where(eq(accounts.id, found.userId));
        return { user: toUser({ id: found.userId, email: found.email, role, emailVerified: true }) };
      });
    },

    /** A new link for the caller: 3 per hour (429 beyond); already verified → nothing sent, sent: false. */
    async resend(userId: string): Promise<{ sent: boolean; user: ReturnType<typeof toUser> }> {
      return db.transaction(async (tx) => {
        // Serialise this account's resends, or concurrent requests could all pass the count.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`verify-resend:${userId}`}))`);
        const [account] = await tx
          .select({ id: accounts.id, email: accounts.email, role: accounts.role, emailConfirmedAt: accounts.emailConfirmedAt, fullName: profiles.fullName })
          .from(accounts)
          .leftJoin(profiles, eq(profiles.id, accounts.id))
          .where(eq(accounts.id, userId));
        if (!account) throw new AppError('unauthorized', 'Unauthorized');
        const view = { id: account.id, email: account.email, role: account.role, emailVerified: account.emailConfirmedAt !== null };
        if (view.emailVerified) return { sent: false, user: toUser(view) };

        const [window] = await tx
          .select({
            n: sql<number>`count(*)::int`,
            retryAfter: sql<number | null>`ceil(extract(epoch from min(${emailVerificationTokens.createdAt}) + interval '1 hour' - now()))::int`,
          })
          .from(emailVerificationTokens)
          .where(
            and(
              eq(emailVerificationTokens.userId, userId),
              eq(emailVerificationTokens.source, 'resend'),
              gt(emailVerificationTokens.createdAt, sql`now() - interval '1 hour'`),
            ),
          );
        if ((window?.n ?? 0) >= RESENDS_PER_HOUR) {
          const seconds = Math.max(1, window?.retryAfter ?? 3600);
          throw new AppError('rate_limited', `At most ${RESENDS_PER_HOUR} verification emails per hour. Please try again later.`, { retryAfter: seconds });
        }
        const userName = account.fullName?.split(/\s+/)[0] || 'there';
        const sent = await send(tx, { userId, email: account.email, userName, source: 'resend' });
        return { sent, user: toUser(view) };
      });
    },
  };
}
