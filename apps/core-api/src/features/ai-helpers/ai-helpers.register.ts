// The AI helpers area: one authenticated scope at /api/ai, the Harper grammar checker's worker ended with
// the app.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from '../feature-deps';
import { createAiHelpersRepository } from './ai-helpers.repository';
import { aiHelpersRoutes } from './ai-helpers.routes';
import { createAiHelpersService } from './ai-helpers.service';
import { createHarperChecker } from './harper-checker';

export async function registerAiHelpers(app: App, deps: CoreFeatureDeps): Promise<void> {
  const checker = createHarperChecker();
  app.addHook('onClose', async () => checker.close());
  const ai = createAiHelpersService({
    sql: deps.sql,
    repo: createAiHelpersRepository(deps.sql),
    llm: deps.providers.llm,
    usage: deps.providers.usage,
    checker,
    log: (err, helper) => app.log.warn({ err, helper }, 'AI helper: model call failed, offline answer given'),
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(aiHelpersRoutes({ ai }), { prefix: '/api/ai' });
  });
}
