// Account settings, consent and the remaining routes of spec 000 (Settings; User, privacy, consent; Uploads,
// images, audio, timeline, misc): registered by app.ts at the root scope; public routes here, authenticated
// ones in a scope with deps.authHook.
import type { App } from '@story/http';
import type { AuthService } from './auth/auth.service';
import type { CoreFeatureDeps } from './feature-deps';
import { createAnalyticsRepository } from './analytics/analytics.repository';
import { analyticsRoutes } from './analytics/analytics.routes';
import { createAnalyticsService } from './analytics/analytics.service';
import { consentRoutes } from './consent/consent.routes';
import { createConsentService } from './consent/consent.service';
import { createInvitationsService } from './family/invitations.service';
import { invitationSignupRoutes } from './invitation-signup/invitation-signup.routes';
import { createInvitationSignup } from './invitation-signup/invitation-signup.service';
import { referenceDataRoutes } from './reference-data/reference-data.routes';
import { settingsRoutes } from './settings/settings.routes';
import { createSettingsService } from './settings/settings.service';
import { shareRoutes } from './share/share.routes';
import { createShareService } from './share/share.service';
import { supportRoutes } from './support/support.routes';
import { createSupportService } from './support/support.service';
import { systemRoutes } from './system/system.routes';

export async function registerSettingsAndAccount(app: App, deps: CoreFeatureDeps, { auth }: { auth: Pick<AuthService, 'signup'> }): Promise<void> {
  const { db, sql, access, config, rateLimit } = deps;
  const settings = createSettingsService({ db });
  const consent = createConsentService({ db });
  const invitations = createInvitationsService({ db, access, appUrl: config.appUrl, rateScale: config.rateLimit.scale });
  const analytics = createAnalyticsService({
    repo: createAnalyticsRepository(sql),
    config: {
      analyticsSetting: async (userId) => (await settings.readSection('privacy', userId)).settings['analytics_enabled'] === true,
      analyticsConsent: async (userId) => (await consent.status(userId)).consents.analytics,
    },
  });

  await app.register(invitationSignupRoutes({ invitationSignup: createInvitationSignup({ auth, invitations }), rateLimit }));
  await app.register(shareRoutes({ share: createShareService({ sql, storage: deps.providers.storage }), rateLimit }));
  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', deps.authHook);
    await authenticated.register(settingsRoutes({ settings }), { prefix: '/api/settings' });
    await authenticated.register(consentRoutes({ consent }), { prefix: '/api/consent' });
    await authenticated.register(analyticsRoutes({ analytics }));
    await authenticated.register(supportRoutes({ support: createSupportService({ sql, access }) }));
    await authenticated.register(referenceDataRoutes());
    await authenticated.register(systemRoutes({ sql }));
  });
}
