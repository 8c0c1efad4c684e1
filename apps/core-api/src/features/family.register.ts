// Family groups, invitations, members, timeline; campaign create flow and tier allowances (spec 000 Family,
// Campaigns, Limits): registered by app.ts at the root scope; public routes here, authenticated ones in a
// scope with deps.authHook. (GET/POST /api/campaigns stay registered in app.ts; their service enforces the
// campaigns allowance.)
import type { App } from '@story/http';
import { createCampaignsService } from './campaigns/campaigns.service';
import { createFlowRoutes } from './campaigns/create-flow.routes';
import { createCreateFlowService } from './campaigns/create-flow.service';
import { familyPublicRoutes, familyRoutes } from './family/routes';
import { createFamilyService } from './family/family.service';
import { createInvitationsService } from './family/invitations.service';
import type { CoreFeatureDeps } from './feature-deps';
import { timelineRoutes } from './timeline/timeline.routes';
import { createTimelineService } from './timeline/timeline.service';

export async function registerFamilyAndCampaigns(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { db, sql, access, config } = deps;
  const invitations = createInvitationsService({ db, access, appUrl: config.appUrl, rateScale: config.rateLimit.scale });
  const family = createFamilyService({ db, access });
  const timeline = createTimelineService({ db, access });
  const flows = createCreateFlowService({ db, invitations, campaigns: createCampaignsService({ db, sql }) });

  await app.register(familyPublicRoutes({ invitations, rateLimit: deps.rateLimit }));
  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', deps.authHook);
    await authenticated.register(familyRoutes({ family, invitations }));
    await authenticated.register(timelineRoutes({ timeline }));
    await authenticated.register(createFlowRoutes({ flows }), { prefix: '/api/campaigns/create-flow' });
  });
}
