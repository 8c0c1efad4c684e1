// Social sign-in's routes under /api/auth/oauth (CONTRACTS §10), with the providers built from config.
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Database, DbOrTx } from '@story/db';
import type { App, RateLimitHandle } from '@story/http';
import type { CoreApiConfig } from '../../config';
import type { AccountView, AuthResult } from '../auth/auth.schemas';
import type { ClientMeta } from '../auth/auth.service';
import { createProviderClients } from './oauth.providers';
import { oauthRoutes } from './oauth.routes';
import { createOAuthService } from './oauth.service';

export interface OAuthRegistrationDeps {
  config: CoreApiConfig;
  db: Database;
  rateLimit: RateLimitHandle;
  /** The auth service's session issuing. */
  openSession: (tx: DbOrTx, account: AccountView, meta: ClientMeta) => Promise<AuthResult>;
  /** 403 for a live impersonation token on the exchange (CONTRACTS §7). */
  refuseImpersonationBearer?: (what: string) => onRequestAsyncHookHandler;
}

export async function registerOAuth(app: App, deps: OAuthRegistrationDeps): Promise<void> {
  const { config, db, rateLimit, openSession, refuseImpersonationBearer } = deps;
  const oauth = createOAuthService({
    db,
    openSession,
    roles: { adminEmails: config.adminEmails, supportEmails: config.supportEmails },
    appUrl: config.appUrl,
    providers: createProviderClients(config.oauth),
    // The library's reason (state, nonce, signature, expiry, audience...) and the provider: never a token or a code.
    onFailure: ({ provider, reason }) => app.log.warn({ provider, reason }, 'social sign-in refused'),
  });
  await app.register(oauthRoutes({ oauth, rateLimit, secureCookie: config.oauth.publicApiUrl.startsWith('https:'), refuseImpersonationBearer }), { prefix: '/api/auth/oauth' });
}
