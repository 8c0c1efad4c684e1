// Social sign-in (CONTRACTS §10). start: a fresh state, PKCE verifier (S256) and, for
// OpenID Connect, a nonce, kept server-side in oauth_states (hash of the state, 10 minutes), bound to the
// browser by the hash of a cookie the routes set. Server-side rather than in a signed cookie: a row can be
// deleted, so a state works once (a cookie cannot be revoked), and the verifier never leaves the server. callback: the
// state is taken (deleted, so it works once), the code exchanged and the ID token checked by openid-client
// (or Facebook's profile read), then the identity signs into its linked account, links to an existing
// account only when the provider says the email is verified, or creates an account without a password;
// the web application gets a one-time code (2 minutes, only its hash stored) it exchanges for a session.
// Knows no HTTP: it throws AppError and returns locations.
import { createHash, randomBytes } from 'node:crypto';
import { generators, type BaseClient, type CallbackParamsType, type UserinfoResponse } from 'openid-client';
import { roleForAccount, type RoleLists } from '@story/auth';
import { isUniqueViolation, type Database, type DbOrTx } from '@story/db';
import { triggerUserSignup } from '@story/email';
import { AppError } from '@story/http';
import { createAuthRepository } from '../auth/auth.repository';
import type { AccountView, AuthResult } from '../auth/auth.schemas';
import type { ClientMeta } from '../auth/auth.service';
import { createOAuthRepository } from './oauth.repository';
import { OAUTH_PROVIDERS, PROVIDER_LABEL, type OAuthProviderName, type ProviderClient } from './oauth.providers';

export const STATE_TTL_MINUTES = 10;
export const EXCHANGE_CODE_TTL_SECONDS = 120;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

export interface OAuthServiceDeps {
  db: Database;
  roles: RoleLists;
  appUrl: string;
  /** The auth service's session issuing, so a social sign-in answers exactly as signin does. */
  openSession: (tx: DbOrTx, account: AccountView, meta: ClientMeta) => Promise<AuthResult>;
  providers: Partial<Record<OAuthProviderName, ProviderClient>>;
  /** A sign-in that failed at the provider or in the checks: the provider and the library's reason (never a token). */
  onFailure?: (info: { provider: string; reason: string }) => void;
}

/** What the provider said about the person. */
interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** Parameters of the callback, from the query (GET) or the form body (Apple's POST). */
export interface CallbackInput {
  state?: string;
  code?: string;
  error?: string;
  /**
   * RFC 9207: the issuer of the authorization response. Passed to openid-client, which refuses one that is
   * not the configured issuer, and a missing one when the issuer advertises
   * authorization_response_iss_parameter_supported (the mix-up defence).
   */
  iss?: string;
  /** Apple sends the name as a JSON `user` field on the first sign-in only. */
  user?: string;
}

const truthy = (v: unknown) => v === true || v === 'true';

export function createOAuthService({ db, roles, appUrl, openSession, providers, onFailure }: OAuthServiceDeps) {
  const repo = createOAuthRepository(db);
  const authRepo = createAuthRepository(db);

  function providerOf(name: string): ProviderClient {
    if (!(OAUTH_PROVIDERS as readonly string[]).includes(name)) {
      throw new AppError('not_found', 'Not found', { details: `There is no sign-in provider called "${name.slice(0, 40)}"; the providers are google, facebook and apple.` });
    }
    const provider = providers[name as OAuthProviderName];
    if (!provider) {
      throw new AppError('not_found', 'Not found', { details: `Sign-in with ${PROVIDER_LABEL[name as OAuthProviderName]} is not configured on this server.` });
    }
    return provider;
  }

  async function clientOf(provider: ProviderClient): Promise<BaseClient> {
    try {
      return await provider.client();
    } catch (err) {
      onFailure?.({ provider: provider.name, reason: failureReason(err, 'discovery failed') });
      throw new AppError('bad_gateway', 'Bad gateway', { details: `${PROVIDER_LABEL[provider.name]} could not be reached. Please try again later.` });
    }
  }

  const refused = (provider: ProviderClient, err: unknown): AppError => {
    onFailure?.({ provider: provider.name, reason: failureReason(err) });
    return new AppError('unauthorized', 'Unauthorized', { details: `The sign-in with ${PROVIDER_LABEL[provider.name]} could not be verified. Please start again.` });
  };

  /** Exchange the code and read who it is: the ID token's claims (checked by the library) or Facebook's profile. */
  async function identify(provider: ProviderClient, client: BaseClient, input: CallbackInput, state: string, checks: { nonce: string | null; codeVerifier: string }): Promise<ProviderIdentity> {
    const params: CallbackParamsType = { code: input.code, state, ...(input.error ? { error: input.error } : {}), ...(input.iss !== undefined ? { iss: input.iss } : {}) };
    try {
      if (provider.oidc) {
        const tokenSet = await client.callback(provider.redirectUri, params, {
          state,
          nonce: checks.nonce ?? undefined,
          code_verifier: checks.codeVerifier,
          response_type: 'code',
        });
        const claims = tokenSet.claims();
        // The email comes from the ID token, or, when the provider keeps it out of the ID token (an OpenID
        // provider releases scope claims at UserInfo when it also issues an access token), from UserInfo:
        // openid-client checks that UserInfo's sub is the ID token's. Its email_verified goes with it.
        let source: { email?: unknown; email_verified?: unknown; name?: unknown } = claims;
        if (typeof claims.email !== 'string' && tokenSet.access_token && client.issuer.metadata.userinfo_endpoint) {
          source = await client.userinfo(tokenSet);
        }
        return {
          subject: claims.sub,
          email: typeof source.email === 'string' ? source.email.trim().toLowerCase() : null,
          emailVerified: typeof source.email === 'string' && truthy(source.email_verified),
          name: typeof claims.name === 'string' ? claims.name : typeof source.name === 'string' ? source.name : appleName(input.user),
        };
      }
      const tokenSet = await client.oauthCallback(provider.redirectUri, params, { state, code_verifier: checks.codeVerifier, response_type: 'code' });
      if (!tokenSet.access_token) throw new Error('no access token in the token response');
      const profile: UserinfoResponse<{ id?: string }> = await client.userinfo(tokenSet.access_token);
      const subject = typeof profile.id === 'string' ? profile.id : typeof profile.sub === 'string' ? profile.sub : undefined;
      if (!subject) throw new Error('the profile has no id');
      return {
        subject,
        email: typeof profile.email === 'string' ? profile.email.trim().toLowerCase() : null,
        // The Graph API does not say whether the address is verified: it never links to an existing account.
        emailVerified: false,
        name: typeof profile.name === 'string' ? profile.name : null,
      };
    } catch (err) {
      throw refused(provider, err);
    }
  }

  async function signInAs(tx: DbOrTx, provider: ProviderClient, who: ProviderIdentity): Promise<string> {
    const linked = await repo.findIdentity(provider.name, who.subject, tx);
    if (linked) {
      await repo.updateIdentityEmail(linked.identityId, who.email, who.emailVerified, tx);
      return linked.userId;
    }
    if (!who.email) {
      throw new AppError('validation', 'Bad request', {
        details: `${PROVIDER_LABEL[provider.name]} did not share an email address, which an account needs. Please allow access to your email address and try again.`,
      });
    }
    const existing = await repo.findAccountByEmail(who.email, tx);
    if (existing) {
      if (!who.emailVerified) {
        throw new AppError('conflict', 'Conflict', {
          details: `An account with this email address already exists, and ${PROVIDER_LABEL[provider.name]} has not confirmed the address is yours. Sign in to that account another way.`,
        });
      }
      // An account not verified before may have been made by someone else with this address: the provider's
      // proof ends every earlier way in, the password, sessions and identities linked before (CONTRACTS §7).
      if (!existing.emailConfirmedAt) {
        await authRepo.dropPreVerificationAccess(existing.id, 'email_claimed_by_provider', tx);
        await repo.markVerified(existing.id, tx);
      }
      await repo.insertIdentity({ userId: existing.id, provider: provider.name, subject: who.subject, email: who.email, emailVerified: true }, tx);
      return existing.id;
    }
    const role = roleForAccount({ email: who.email, emailVerified: who.emailVerified }, roles);
    const account = await repo.insertAccount({ email: who.email, role, emailVerified: who.emailVerified }, tx);
    await authRepo.insertProfileAndSettings(account.id, who.name, tx);
    await triggerUserSignup(tx, account.id, { user_name: who.name?.split(/\s+/)[0] || 'there', onboarding_url: `${appUrl}/onboarding` });
    await repo.insertIdentity({ userId: account.id, provider: provider.name, subject: who.subject, email: who.email, emailVerified: who.emailVerified }, tx);
    return account.id;
  }

  return {
    /** The configured providers, for /health. */
    configured: (): OAuthProviderName[] => OAUTH_PROVIDERS.filter((p) => providers[p] !== undefined),

    /** The provider's authorization URL for a fresh state, PKCE verifier and (OIDC) nonce. */
    async start(providerName: string, redirectTo: string | undefined, browserBinding: string): Promise<string> {
      const provider = providerOf(providerName);
      const client = await clientOf(provider);
      const state = newSecret();
      const nonce = provider.oidc ? newSecret() : null;
      const codeVerifier = generators.codeVerifier();
      await repo.insertState({ stateHash: sha256(state), browserHash: sha256(browserBinding), provider: provider.name, nonce, codeVerifier, redirectTo: redirectTo ?? null, ttlMinutes: STATE_TTL_MINUTES });
      return client.authorizationUrl({
        scope: provider.scope,
        state,
        ...(nonce ? { nonce } : {}),
        code_challenge: generators.codeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        redirect_uri: provider.redirectUri,
        ...(provider.responseMode ? { response_mode: provider.responseMode } : {}),
      });
    },

    /** Check the state, exchange the code, sign in (or link, or create); answers the web application's URL with a one-time code. */
    async callback(providerName: string, input: CallbackInput, browserBinding: string | undefined): Promise<string> {
      const provider = providerOf(providerName);
      if (!input.state) throw new AppError('validation', 'Bad request', { field: 'state', details: 'The sign-in answer has no state. Please start the sign-in again.' });
      const state = input.state;
      // Taken before anything else, in its own statement: a replay (or a second, concurrent use) finds nothing.
      const found = await repo.takeState(sha256(state));
      if (!found || found.provider !== provider.name || found.expired) {
        throw new AppError('validation', 'Bad request', {
          field: 'state',
          details: found?.expired ? 'This sign-in took too long. Please start again.' : 'This sign-in answer does not belong to a sign-in started here, or was already used. Please start again.',
        });
      }
      // A state started in another browser (an attacker's own sign-in handed to a victim): login CSRF.
      if (!browserBinding || sha256(browserBinding) !== found.browserHash) {
        throw new AppError('validation', 'Bad request', {
          field: 'state',
          details: 'This sign-in was not started in this browser. Please start the sign-in again here.',
        });
      }
      if (input.error) {
        onFailure?.({ provider: provider.name, reason: `provider answered ${input.error.slice(0, 64)}` });
        throw new AppError('validation', 'Bad request', { details: `${PROVIDER_LABEL[provider.name]} did not complete the sign-in. Please try again.` });
      }
      if (!input.code) throw new AppError('validation', 'Bad request', { field: 'code', details: 'The sign-in answer has no authorization code. Please start again.' });
      const client = await clientOf(provider);
      const who = await identify(provider, client, input, state, { nonce: found.nonce, codeVerifier: found.codeVerifier });
      const code = newSecret();
      try {
        await repo.transaction(async (tx) => {
          const userId = await signInAs(tx, provider, who);
          await repo.insertExchangeCode({ codeHash: sha256(code), userId, provider: provider.name, ttlSeconds: EXCHANGE_CODE_TTL_SECONDS }, tx);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('conflict', 'Conflict', { details: 'This sign-in raced another one for the same account. Please try again.' });
        throw err;
      }
      const target = new URL(`${appUrl}/auth/callback`);
      target.searchParams.set('code', code);
      if (found.redirectTo) target.searchParams.set('redirect_to', found.redirectTo);
      return target.toString();
    },

    /** POST /exchange: the one-time code for {user, session}, once. */
    async exchange(code: string, meta: ClientMeta): Promise<AuthResult> {
      const outcome = await repo.transaction(async (tx) => {
        const spent = await repo.spendExchangeCode(sha256(code), tx);
        if (spent.kind !== 'ok') return spent;
        const { account } = spent;
        const emailVerified = account.emailConfirmedAt !== null;
        const role = roleForAccount({ email: account.email, emailVerified, grantedRole: account.grantedRole }, roles);
        await authRepo.markSignedIn(account.id, role, tx);
        return { kind: 'ok' as const, result: await openSession(tx, { id: account.id, email: account.email, role, emailVerified }, meta) };
      });
      if (outcome.kind === 'ok') return outcome.result;
      if (outcome.kind === 'spent') throw new AppError('gone', 'Gone', { details: 'This sign-in code was already used or has expired. Please sign in again.' });
      throw new AppError('validation', 'Bad request', { field: 'code', details: 'Unknown sign-in code.' });
    },
  };
}

/**
 * The library's reason for a refusal, fit for a log line: openid-client writes what it expected and what it
 * got ("nonce mismatch, expected <nonce>, got: <nonce>", the same for state), so everything from
 * "expected" on is cut, and the rest is kept short.
 */
export function failureReason(err: unknown, fallback = 'sign-in failed'): string {
  if (!(err instanceof Error) || !err.message) return fallback;
  const [before = ''] = err.message.split(/,?\s*\b(?:expected|got)\b/i);
  return before.trim().slice(0, 160) || fallback;
}

/** Apple's `user` form field: {"name": {"firstName", "lastName"}} on the first sign-in. */
function appleName(user: string | undefined): string | null {
  if (!user) return null;
  try {
    const parsed = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } };
    const parts = [parsed.name?.firstName, parsed.name?.lastName].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    return parts.length ? parts.join(' ').slice(0, 200) : null;
  } catch {
    return null;
  }
}

export type OAuthService = ReturnType<typeof createOAuthService>;
