// STORAGE_DRIVER=none: every operation refuses with the one error callers tell apart from a failing store.
import { createObjectStorage, isStorageNotConfigured, ProviderError } from './index';

describe('unconfigured storage', () => {
  it('refuses every operation with StorageNotConfiguredError (a ProviderError of kind unavailable)', async () => {
    const storage = createObjectStorage({ driver: 'none' }, { publicBaseUrl: 'http://127.0.0.1:3000' });
    expect(storage.provider).toBe('none');
    const calls = [
      () => storage.put('a/b', Buffer.from('x')),
      () => storage.get('a/b'),
      () => storage.head('a/b'),
      () => storage.delete('a/b'),
      () => storage.presignUpload('a/b', { contentType: 'audio/wav', contentLength: 1, expiresInSeconds: 60 }),
      () => storage.list('a'),
      () => storage.check(),
    ];
    for (const call of calls) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isStorageNotConfigured(err)).toBe(true);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind: 'unavailable', message: 'Object storage is not configured on this server' });
    }
    // A configured store's failure is not mistaken for it.
    expect(isStorageNotConfigured(new ProviderError('unavailable', 's3', 'store unreachable'))).toBe(false);
  });
});
