// STORAGE_DRIVER=none: no object storage at all. Every operation throws StorageNotConfiguredError, which
// callers tell apart from a store that is configured but failing (spec 000: an upload to unconfigured
// storage answers 503 and keeps an upload_failed row; a configured store that throws answers 502, no row).
import { ProviderError } from '../provider-error';
import type { ObjectStorage } from './storage.port';

export class StorageNotConfiguredError extends ProviderError {
  constructor() {
    super('unavailable', 'none', 'Object storage is not configured on this server');
    this.name = 'StorageNotConfiguredError';
  }
}

export const isStorageNotConfigured = (err: unknown): err is StorageNotConfiguredError => err instanceof StorageNotConfiguredError;

export function createUnconfiguredStorage(): ObjectStorage {
  const refuse = async (): Promise<never> => {
    throw new StorageNotConfiguredError();
  };
  return { provider: 'none', put: refuse, get: refuse, head: refuse, delete: refuse, presignUpload: refuse, list: refuse, check: refuse };
}
