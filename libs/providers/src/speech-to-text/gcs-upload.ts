// Google's long-running recognition reads media of 14 MB or more from Cloud Storage, not from the
// request: this streams the recording into a configured bucket (never whole in memory) and returns its
// gs:// URI.
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type * as GcsSdk from '@google-cloud/storage';
import { ProviderError } from '../provider-error';
import type { MediaSource } from './speech-to-text.port';
import { lazyModule } from '../shared/lazy-module';

const loadSdk = lazyModule(() => require('@google-cloud/storage') as typeof GcsSdk);

export interface GcsUploadConfig {
  bucket: string;
  /** Service-account key file; unset means application default credentials. */
  keyFilename?: string;
  projectId?: string;
  /** Another endpoint (an emulator, or a test's fake); requests to it are sent without Google auth. */
  apiEndpoint?: string;
}

export function createGcsUploader(config: GcsUploadConfig): (media: MediaSource, options: { mimeType: string }) => Promise<string> {
  const storage = new (loadSdk().Storage)({ keyFilename: config.keyFilename, projectId: config.projectId, apiEndpoint: config.apiEndpoint, retryOptions: { autoRetry: true, maxRetries: 2 } });
  const bucket = storage.bucket(config.bucket);
  return async (media, { mimeType }) => {
    const now = new Date();
    const name = `speech-to-text/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
    try {
      // One multipart request, streamed. A failed upload is not replayed here; the recording job retries it.
      await pipeline(media.open(), bucket.file(name).createWriteStream({ resumable: false, contentType: mimeType, validation: false }));
    } catch (err) {
      const status = (err as { code?: unknown }).code;
      throw new ProviderError(typeof status === 'number' && status >= 500 ? 'unavailable' : 'failed', 'google', 'Could not store the media for long-running recognition', {
        status: typeof status === 'number' ? status : undefined,
        cause: err,
      });
    }
    return `gs://${config.bucket}/${name}`;
  };
}
