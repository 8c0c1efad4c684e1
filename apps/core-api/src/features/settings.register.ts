// Account settings, consent and the remaining routes of spec 000 (issue 13 points 1, 2 (consent) and 9):
// registered by app.ts at the root scope; public routes here, authenticated ones in a scope with deps.authHook.
import type { App } from '@story/http';
import type { AuthService } from './auth/auth.service';
import type { CoreFeatureDeps } from './feature-deps';
import { consentRoutes } from './consent/consent.routes';
import { createConsentService } from './consent/consent.service';
import { settingsRoutes } from './settings/settings.routes';
import { createSettingsService } from './settings/settings.service';

export async function registerSettingsAndAccount(app: App, deps: CoreFeatureDeps, { auth }: { auth: AuthService }): Promise<void> {
  const { db } = deps;
  void auth;
  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', deps.authHook);
    await authenticated.register(settingsRoutes({ settings: createSettingsService({ db }) }), { prefix: '/api/settings' });
    await authenticated.register(consentRoutes({ consent: createConsentService({ db }) }), { prefix: '/api/consent' });
  });
}
