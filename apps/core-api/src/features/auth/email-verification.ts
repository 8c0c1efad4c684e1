// Email verification (CONTRACTS §7): a 256-bit random token per email, single use, valid 24 hours; only
// its sha256 is stored, with the account and the address it was sent to. Verifying sets
// accounts.email_confirmed_at and the role the lists give a verified address (roleForAccount), so the
// next refresh or sign-in carries it. Resends: 3 per hour per account, counted in PostgreSQL so the
// limit holds across replicas and restarts.
//
// The first verification of an account made unverified is the first proof that its holder owns the
// mailbox (CONTRACTS §7): presented by anyone but a signed-in session of that very account, it removes the
// password, ends every session and unlinks every identity attached before it (auth.repository
// dropPreVerificationAccess), so whoever signed up first with someone else's address keeps nothing. A
// session of the account presenting the token has shown both the account's credential and the mailbox, so
// the account is its holder's and keeps its way in (the web app sends its Bearer token with the link).
import { createHash, randomBytes } from 'node:crypto';
import type { AccountRole, Database, DbOrTx } from '@story/db';
import { triggerEmailVerification } from '@story/email';
import { AppError, countedLimit } from '@story/http';
import { toUser } from './auth.schemas';
import { createAuthRepository } from './auth.repository';
import { createEmailVerificationRepository } from './email-verification.repository';

export const VERIFICATION_TTL_HOURS = 24;

/** CONTRACTS §7: 3 per hour, counted over the account's resend tokens (not scaled by RATE_LIMIT_SCALE). */
const resends = countedLimit('core.resend-verification');

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface EmailVerificationDeps {
  db: Database;
  /** The web application: the link is `${appUrl}/verify-email?token=<token>`. */
  appUrl: string;
  roleOf: (account: { email: string; emailVerified: boolean; grantedRole?: string | null }) => AccountRole;
  /**
   * Runs in the transaction of a first verification presented by one of the account's own sessions, after the
   * address is marked verified (the invitations kept at signup-with-invitation are accepted there).
   */
  onVerifiedBySession?: (userId: string, tx: DbOrTx) => Promise<unknown>;
}

const gone = (message: string) => new AppError('gone', message, { field: 'token' });

export function createEmailVerification({ db, appUrl, roleOf, onVerifiedBySession }: EmailVerificationDeps) {
  const repo = createEmailVerificationRepository(db);
  const authRepo = createAuthRepository(db);

  /** Make a token, keep its hash, and queue the verify_email message with the link (in the caller's transaction). */
  async function send(tx: DbOrTx, input: { userId: string; email: string; userName: string; source: 'signup' | 'resend' }): Promise<boolean> {
    const token = randomBytes(32).toString('base64url');
    const tokenId = await repo.insertToken(
      { userId: input.userId, email: input.email, tokenHash: sha256(token), source: input.source, ttlHours: VERIFICATION_TTL_HOURS },
      tx,
    );
    const result = await triggerEmailVerification(tx, input.userId, {
      verification_url: `${appUrl}/verify-email?token=${token}`,
      user_name: input.userName,
      idempotency_key: `verify-email:${tokenId}`,
    });
    return result.queued > 0;
  }

  return {
    send,

    /**
     * Spend a token. Unknown (forged) → 400; used, expired, or sent to an address the account no longer
     * has → 410; a signed-in caller presenting another account's token → 403. Nothing changes on refusal.
     * Verifying spends every other open token of the account too; the first one, unless a session of the
     * account presents it, also ends every earlier way in (see the top of this file).
     */
    async verify(token: string, callerId?: string): Promise<{ user: ReturnType<typeof toUser> }> {
      return repo.transaction(async (tx) => {
        const found = await repo.findTokenForUpdate(sha256(token), tx);
        if (!found) throw new AppError('validation', 'This verification link is not valid', { field: 'token' });
        // A token only ever verifies the account it was made for, whoever presents it.
        if (callerId !== undefined && callerId !== found.userId) {
          throw new AppError('forbidden', 'This verification link belongs to another account', { field: 'token' });
        }
        if (found.usedAt) throw gone('This verification link has already been used');
        if (found.expired) throw gone('This verification link has expired; ask for a new one');
        if (found.sentTo !== found.email) throw gone('This verification link was sent to a different address');

        const role = roleOf({ email: found.email, emailVerified: true, grantedRole: found.grantedRole });
        await repo.spendOpenTokens(found.userId, tx);
        const first = found.emailConfirmedAt === null;
        const bySession = callerId === found.userId;
        if (first && !bySession) await authRepo.dropPreVerificationAccess(found.userId, 'email_verified', tx);
        await repo.markVerified(found.userId, found.emailConfirmedAt ?? new Date(), role, tx);
        if (first && bySession) await onVerifiedBySession?.(found.userId, tx);
        return { user: toUser({ id: found.userId, email: found.email, role, emailVerified: true }) };
      });
    },

    /** A new link for the caller: 3 per hour (429 beyond); already verified → nothing sent, sent: false. */
    async resend(userId: string): Promise<{ sent: boolean; user: ReturnType<typeof toUser> }> {
      return repo.transaction(async (tx) => {
        await repo.lockResends(userId, tx);
        const account = await repo.accountWithName(userId, tx);
        if (!account) throw new AppError('unauthorized', 'Unauthorized');
        const view = { id: account.id, email: account.email, role: account.role, emailVerified: account.emailConfirmedAt !== null };
        if (view.emailVerified) return { sent: false, user: toUser(view) };

        const window = await repo.resendWindow(userId, tx);
        resends.assert(window?.n ?? 0, Math.max(1, window?.retryAfter ?? 3600));
        const userName = account.fullName?.split(/\s+/)[0] || 'there';
        const sent = await send(tx, { userId, email: account.email, userName, source: 'resend' });
        return { sent, user: toUser(view) };
      });
    },
  };
}
