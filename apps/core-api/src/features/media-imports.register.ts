// Imports, the image gallery, audio by recording and presigned uploads (spec 000 Templates, imports,
// achievements; Uploads, images, audio; CONTRACTS §9): every route needs a signed-in caller. URL imports take
// the test-only fetch allowances from `urlFetch`, which nothing in production sets.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';
import { audioRoutes } from './audio/audio.routes';
import { createAudioService } from './audio/audio.service';
import { imagesRoutes, imageUploadRoutes } from './images/images.routes';
import { createImagesService } from './images/images.service';
import { importExtractJob } from './imports/imports.jobs';
import { importsRoutes } from './imports/imports.routes';
import { createImportsService, type UrlFetchOptions } from './imports/imports.service';
import { uploadUrlRoutes } from './upload-url/upload-url.routes';
import { createUploadUrlService } from './upload-url/upload-url.service';
import { createTicketSigner } from './uploads/upload-ticket';

export async function registerImportsAndMedia(app: App, deps: CoreFeatureDeps, options: { urlFetch?: UrlFetchOptions } = {}): Promise<void> {
  const { sql, providers, jobs, access, config } = deps;
  const storage = providers.storage;
  const publicBaseUrl = config.publicBaseUrl ?? '';
  const uploadLimit = deps.rateLimit.route('core.uploads');
  const imports = createImportsService({ sql, storage, jobs, urlFetch: options.urlFetch });
  jobs.define(importExtractJob(imports));
  const images = createImagesService({ sql, storage, access, publicBaseUrl });
  const uploads = createUploadUrlService({ sql, storage, tickets: createTicketSigner(config.secrets.uploadTicketSecret), publicBaseUrl, maxStoredFileBytes: config.limits.maxStoredFileBytes });

  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(importsRoutes({ imports, uploadLimit, storyLimit: deps.rateLimit.route('core.stories') }), { prefix: '/api/imports' });
    await scope.register(imagesRoutes({ images }), { prefix: '/api/images' });
    await scope.register(imageUploadRoutes({ images, provider: storage.provider, uploadLimit }), { prefix: '/api/upload' });
    await scope.register(audioRoutes({ audio: createAudioService({ sql, storage, access, publicBaseUrl }) }), { prefix: '/api/audio' });
    await scope.register(uploadUrlRoutes({ uploads, uploadLimit }), { prefix: '/api' });
  });
}
