// Object storage: one port, an S3 adapter and the local-filesystem default, chosen by config (CONVENTIONS 8).
import { createLocalStorage } from './local.adapter';
import { createS3Storage } from './s3.adapter';
import { createUnconfiguredStorage } from './unconfigured.adapter';
import type { ObjectStorage } from './storage.port';
import type { PlatformConfig } from '@story/config';

/** The storage settings of the platform configuration (one definition, in libs/config), plus a request timeout. */
type Configured = PlatformConfig['storage'];
export type StorageConfig = Exclude<Configured, { driver: 's3' }> | (Extract<Configured, { driver: 's3' }> & { requestTimeoutMs?: number });

/** Build the configured store; `publicBaseUrl` is core-api's public URL, where local direct uploads go. */
export function createObjectStorage(config: StorageConfig, options: { publicBaseUrl: string }): ObjectStorage {
  switch (config.driver) {
    case 's3': {
      const { driver: _driver, ...s3 } = config;
      return createS3Storage(s3);
    }
    case 'local':
      return createLocalStorage({ root: config.root, publicBaseUrl: options.publicBaseUrl });
    case 'none':
      return createUnconfiguredStorage();
    default: {
      const unknown: never = config;
      throw new Error(`Unknown storage driver: ${(unknown as { driver: string }).driver}`);
    }
  }
}

export * from './storage.port';
export * from './keys';
export { ProviderError, type ProviderErrorKind } from '../provider-error';
export { createLocalStorage, type LocalStorageConfig } from './local.adapter';
export { createS3Storage, type S3StorageConfig } from './s3.adapter';
export { createUnconfiguredStorage, isStorageNotConfigured, StorageNotConfiguredError } from './unconfigured.adapter';
