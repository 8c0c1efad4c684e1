// Magic sign-in links (CONTRACTS §10). A request answers the same whether or not the address has an
// account: a row is stored either way (so the per-email limit counts requests, not accounts, and the
// work is alike), and only an existing account gets the magic_link email. The token is 256-bit, single
// use, valid 15 minutes; only its sha256 is stored. Verifying signs in exactly as signin does (the
// session comes from the auth service), marks the email verified (the link proves the mailbox) and
// gives the role roleForAccount decides. The first verification of an account made unverified ends every
// earlier way in (CONTRACTS §7: the password, every other session, every linked identity; auth.repository
// dropPreVerificationAccess), in the same transaction; the session this link opens is the only one left.
import { createHash, randomBytes } from 'node:crypto';
import type { AccountRole, Database, DbOrTx } from '@story/db';
import { triggerMagicLink } from '@story/email';
import { AppError, countedLimit } from '@story/http';
import type { AccountView, AuthResult, ClientMeta } from './auth.schemas';
import { createAuthRepository } from './auth.repository';
import { createMagicLinkRepository } from './magic-link.repository';

export const MAGIC_LINK_TTL_MINUTES = 15;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const gone = (message: string) => new AppError('gone', message, { field: 'token' });

export interface MagicLinkDeps {
  db: Database;
  /** The web application: the link is `${appUrl}/auth/magic?token=<token>`. */
  appUrl: string;
  roleOf: (account: { email: string; emailVerified: boolean; grantedRole?: string | null }) => AccountRole;
  /** The auth service's session issuing, so the answer is exactly signin's. */
  openSession: (tx: DbOrTx, account: AccountView, meta: ClientMeta) => Promise<AuthResult>;
  /** RATE_LIMIT_SCALE for the per-email limit. */
  limitScale?: number;
}

export function createMagicLinks({ db, appUrl, roleOf, openSession, limitScale = 1 }: MagicLinkDeps) {
  const repo = createMagicLinkRepository(db);
  const authRepo = createAuthRepository(db);
  const perEmail = countedLimit('core.magic-link.email', limitScale);

  return {
    /** Store a request for the (lower-cased) address; queue the email only when an account has it. 429 past 5 per hour per address. */
    async request(email: string): Promise<void> {
      const emailHash = sha256(email);
      await repo.transaction(async (tx) => {
        await repo.lockEmail(emailHash, tx);
        const window = await repo.requestWindow(emailHash, tx);
        perEmail.assert(window?.n ?? 0, Math.max(1, window?.retryAfter ?? 3600));
        const account = await repo.accountWithName(email, tx);
        const token = randomBytes(32).toString('base64url');
        const tokenId = await repo.insertToken({ userId: account?.id ?? null, emailHash, tokenHash: sha256(token), ttlMinutes: MAGIC_LINK_TTL_MINUTES }, tx);
        if (!account) return;
        await triggerMagicLink(tx, account.id, {
          magic_link_url: `${appUrl}/auth/magic?token=${token}`,
          user_name: account.fullName?.split(/\s+/)[0] || 'there',
          idempotency_key: `magic-link:${tokenId}`,
        });
      });
    },

    /**
     * Spend a token and sign in. Unknown (or made for an address with no account) → 400; used, expired, or
     * for an address the account no longer has → 410. Nothing changes and no session is made on refusal.
     */
    async verify(token: string, meta: ClientMeta): Promise<AuthResult> {
      return repo.transaction(async (tx) => {
        const found = await repo.findTokenForUpdate(sha256(token), tx);
        if (!found) throw new AppError('validation', 'This sign-in link is not valid', { field: 'token' });
        if (found.usedAt) throw gone('This sign-in link has already been used; ask for a new one');
        if (found.expired) throw gone('This sign-in link has expired; ask for a new one');
        if (found.emailHash !== sha256(found.email)) throw gone('This sign-in link was sent to a different address');

        const role = roleOf({ email: found.email, emailVerified: true, grantedRole: found.grantedRole });
        await repo.spendOpenTokens(found.userId, tx);
        if (found.emailConfirmedAt === null) await authRepo.dropPreVerificationAccess(found.userId, 'email_verified_by_magic_link', tx);
        await repo.markVerifiedAndSignedIn(found.userId, found.emailConfirmedAt ?? new Date(), role, tx);
        return openSession(tx, { id: found.userId, email: found.email, role, emailVerified: true }, meta);
      });
    },
  };
}
