// Recordings, direct uploads and story conversion (issue 4): the recording routes and presign/register
// need a signed-in caller; the local direct PUT is authorised by its upload ticket alone.
import type { App } from '@story/http';
import { createJobQueue } from '@story/db';
import type { CoreFeatureDeps } from './feature-deps';
import { recordingsRoutes } from './recordings/recordings.routes';
import { createRecordingsService } from './recordings/recordings.service';
import { createTicketSigner } from './uploads/upload-ticket';
import { directUploadRoutes, uploadsRoutes } from './uploads/uploads.routes';
import { createUploadsService } from './uploads/uploads.service';

/** Spec 000 Limits: file upload 20 per hour. */
const UPLOADS_PER_HOUR = 20;

export async function registerRecordingsToStories(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { sql, providers, config, access } = deps;
  const jobs = createJobQueue(sql, 'core');
  const recordings = createRecordingsService({ sql, storage: providers.storage, access, jobs, publicBaseUrl: config.publicBaseUrl ?? '' });
  const uploads = createUploadsService({ sql, storage: providers.storage, tickets: createTicketSigner(config.secrets.uploadTicketSecret), recordings });
  const uploadLimit = deps.rateLimit.limit(UPLOADS_PER_HOUR, '1 hour');

  await app.register(directUploadRoutes({ uploads }), { prefix: '/api/uploads/direct' });
  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(recordingsRoutes({ recordings, uploadLimit }), { prefix: '/api/recordings' });
    await scope.register(uploadsRoutes({ uploads, uploadLimit }), { prefix: '/api/uploads' });
  });
}
