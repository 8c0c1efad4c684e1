// Gifts, invoices and achievements (spec 000 Gifts, invoices, achievements; CONTRACTS §9): authenticated
// routes in one scope.
import type { App } from '@story/http';
import { achievementsRoutes } from './achievements/achievements.routes';
import { createAchievementsService } from './achievements/achievements.service';
import type { CoreFeatureDeps } from './feature-deps';
import { giftsRoutes } from './gifts/gifts.routes';
import { createGiftsService } from './gifts/gifts.service';
import { defineGiftTermSweep } from './gifts/gift-terms';
import { invoicesRoutes } from './invoices/invoices.routes';
import { createInvoicesService } from './invoices/invoices.service';

export async function registerGiftsAndAchievements(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { db } = deps;
  const gifts = createGiftsService({ db, billing: deps.providers.billing, appUrl: deps.config.appUrl });
  defineGiftTermSweep(deps.jobs, { db });
  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', deps.authHook);
    await authenticated.register(giftsRoutes({ gifts, rateLimit: deps.rateLimit }));
    await authenticated.register(invoicesRoutes({ invoices: createInvoicesService({ db }) }));
    await authenticated.register(achievementsRoutes({ achievements: createAchievementsService({ db }) }));
  });
}
