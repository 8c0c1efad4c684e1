// Imports, the image gallery, audio share links and presigned uploads (issue 13, points 5 and 7): every
// route needs a signed-in caller. URL imports take the test-only fetch allowances from `urlFetch`, which
// nothing in production sets.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';
import { importExtractJob } from './imports/imports.jobs';
import { importsRoutes } from './imports/imports.routes';
import { createImportsService, type UrlFetchOptions } from './imports/imports.service';

export async function registerImportsAndMedia(app: App, deps: CoreFeatureDeps, options: { urlFetch?: UrlFetchOptions } = {}): Promise<void> {
  const { sql, providers, jobs } = deps;
  const uploadLimit = deps.rateLimit.route('core.uploads');
  const imports = createImportsService({ sql, storage: providers.storage, jobs, urlFetch: options.urlFetch });
  jobs.define(importExtractJob(imports));

  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(importsRoutes({ imports, uploadLimit, storyLimit: deps.rateLimit.route('core.stories') }), { prefix: '/api/imports' });
  });
}
