// Social sign-in's routes under /api/auth/oauth (CONTRACTS §10), with the providers built from config.
import type { TokenSigner } from '@story/auth';
import type { Database } from '@story/db';
import type { App, RateLimitHandle } from '@story/http';
import type { CoreApiConfig } from '../../config';
import { createProviderClients } from './oauth.providers';
import { oauthRoutes } from './oauth.routes';
import { createOAuthService } from './oauth.service';

export async function registerOAuth(app: App, deps: { config: CoreApiConfig; db: Database; tokens: Pick<TokenSigner, 'sign'>; rateLimit: RateLimitHandle }): Promise<void> {
  const { config, db, tokens, rateLimit } = deps;
  const oauth = createOAuthService({
    db,
    tokens,
    roles: { adminEmails: config.adminEmails, supportEmails: config.supportEmails },
    appUrl: config.appUrl,
    sessionDays: config.limits.sessionDays,
    providers: createProviderClients(config.oauth),
    // The library's reason (state, nonce, signature, expiry, audience...) and the provider: never a token or a code.
    onFailure: ({ provider, reason }) => app.log.warn({ provider, reason }, 'social sign-in refused'),
  });
  await app.register(oauthRoutes({ oauth, rateLimit, secureCookie: config.oauth.publicApiUrl.startsWith('https:') }), { prefix: '/api/auth/oauth' });
}
