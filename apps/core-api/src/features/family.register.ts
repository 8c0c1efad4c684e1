// Family groups, invitations, members, timeline; campaign create flow and tier allowances (issue 5):
// registered by app.ts at the root scope; public routes here, authenticated ones in a scope with deps.authHook.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';

export async function registerFamilyAndCampaigns(app: App, deps: CoreFeatureDeps): Promise<void> {
  void app;
  void deps;
}
