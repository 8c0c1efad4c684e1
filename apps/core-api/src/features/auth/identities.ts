// Sign-in methods of an account (spec 000 Authentication 2, CONTRACTS §10). Ways in:
// - password: when the account has a password hash (accounts made by social sign-in have none);
// - magic_link: when the email is verified. Any account may ask for a link, but only a verified address
//   is known to be the holder's mailbox, so only then does it count as a way in (and is listed);
// - each linked social identity (google, facebook, apple).
// Unlinking a provider removes its identities, unless that would leave no way in (409).
import type { AuthProvider, Database, DbOrTx } from '@story/db';
import { AppError } from '@story/http';
import { createIdentitiesRepository } from './identities.repository';

export type SignInMethod = 'password' | 'magic_link' | AuthProvider;

export interface SignInMethodView {
  method: SignInMethod;
  /** The address the method uses: the account's for password and magic_link, the provider's for social ones. */
  email: string | null;
  email_verified: boolean;
  /** When a social identity was linked; null for password and magic_link. */
  linked_at: string | null;
  /** Whether DELETE /api/auth/identities/{method} is offered: social identities, while another way in remains. */
  removable: boolean;
}

export function createIdentities({ db }: { db: Database }) {
  const repo = createIdentitiesRepository(db);

  async function list(userId: string, tx: DbOrTx = db): Promise<SignInMethodView[]> {
    const account = await repo.account(userId, tx);
    if (!account) throw new AppError('unauthorized', 'Unauthorized');
    const identities = await repo.identities(userId, tx);
    const ways = (account.hasPassword ? 1 : 0) + (account.emailVerified ? 1 : 0) + identities.length;
    const methods: SignInMethodView[] = [];
    if (account.hasPassword) methods.push({ method: 'password', email: account.email, email_verified: account.emailVerified, linked_at: null, removable: false });
    if (account.emailVerified) methods.push({ method: 'magic_link', email: account.email, email_verified: true, linked_at: null, removable: false });
    for (const identity of identities) {
      const sameProvider = identities.filter((i) => i.provider === identity.provider).length;
      methods.push({
        method: identity.provider,
        email: identity.email,
        email_verified: identity.emailVerified,
        linked_at: identity.createdAt.toISOString(),
        removable: ways - sameProvider > 0,
      });
    }
    return methods;
  }

  return {
    list: (userId: string) => list(userId),

    /** Unlink every identity of the provider; 404 when none is linked, 409 when it is the last way in. Answers the list after. */
    async unlink(userId: string, provider: AuthProvider): Promise<SignInMethodView[]> {
      return repo.transaction(async (tx) => {
        const account = await repo.account(userId, tx, true);
        if (!account) throw new AppError('unauthorized', 'Unauthorized');
        const identities = await repo.identities(userId, tx);
        const linked = identities.filter((i) => i.provider === provider).length;
        if (linked === 0) throw new AppError('not_found', `No ${provider} sign-in is linked to this account`);
        const remaining = (account.hasPassword ? 1 : 0) + (account.emailVerified ? 1 : 0) + identities.length - linked;
        if (remaining === 0) {
          throw new AppError(
            'conflict',
            `${provider} is the only way to sign in to this account. Set a password or verify your email address before unlinking it.`,
          );
        }
        await repo.unlink(userId, provider, tx);
        return list(userId, tx);
      });
    },
  };
}

export type IdentitiesService = ReturnType<typeof createIdentities>;
