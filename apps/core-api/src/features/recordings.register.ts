// Recordings, direct uploads and story conversion (spec 000 Recordings, Recording to story): the recording
// routes and presign/register need a signed-in caller; the local direct PUT is authorised by its upload
// ticket alone.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';
import { conversionRoutes } from './conversion/conversion.routes';
import { createConversionService } from './conversion/conversion.service';
import { recordingsRoutes } from './recordings/recordings.routes';
import { createRecordingsService } from './recordings/recordings.service';
import { createStoriesService } from './stories/stories.service';
import { createTicketSigner } from './uploads/upload-ticket';
import { directUploadRoutes, uploadsRoutes } from './uploads/uploads.routes';
import { createUploadsService } from './uploads/uploads.service';
import { uploadSweepJob } from './uploads/upload-sweep';
import { recordingProcessJob } from '../workers/recording-jobs.worker';

export async function registerRecordingsToStories(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { sql, providers, config, access } = deps;
  const { jobs } = deps;
  const maxStoredFileBytes = config.limits.maxStoredFileBytes;
  const recordings = createRecordingsService({ sql, storage: providers.storage, access, jobs, publicBaseUrl: config.publicBaseUrl ?? '', maxStoredFileBytes });
  const uploads = createUploadsService({ sql, storage: providers.storage, tickets: createTicketSigner(config.secrets.uploadTicketSecret), recordings });
  const uploadLimit = deps.rateLimit.route('core.uploads');
  jobs.define(recordingProcessJob({ sql, storage: providers.storage, speech: providers.speech, log: app.log.child({ component: 'core-jobs' }) }));
  // Direct uploads never registered are deleted once their ticket expires (recurring, every 15 minutes).
  jobs.define(uploadSweepJob({ sql, storage: providers.storage }));

  await app.register(directUploadRoutes({ uploads, maxStoredFileBytes }), { prefix: '/api/uploads/direct' });
  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(recordingsRoutes({ recordings, uploadLimit }), { prefix: '/api/recordings' });
    await scope.register(uploadsRoutes({ uploads, uploadLimit }), { prefix: '/api/uploads' });
    const conversion = createConversionService({ sql, llm: providers.llm, access });
    const stories = createStoriesService({ sql, access, publicBaseUrl: config.publicBaseUrl ?? '' });
    await scope.register(
      conversionRoutes({ conversion, loadStory: (userId, id) => stories.get(userId, id), storyLimit: deps.rateLimit.route('core.stories') /* conversion creates a story */ }),
      { prefix: '/api/stories' },
    );
  });
}
