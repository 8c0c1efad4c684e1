// core-api's own settings on top of the platform config: MAX_STORED_FILE_BYTES (spec 000 Limits, 50 MB).
import { testEnv } from '@story/testing';
import { DEFAULT_MAX_STORED_FILE_BYTES, loadConfig } from './config';

describe('core-api config', () => {
  it('keeps stored files to 50 MB unless MAX_STORED_FILE_BYTES says otherwise', () => {
    expect(DEFAULT_MAX_STORED_FILE_BYTES).toBe(50 * 1024 * 1024);
    expect(loadConfig(testEnv({})).limits.maxStoredFileBytes).toBe(52_428_800);
    expect(loadConfig(testEnv({ MAX_STORED_FILE_BYTES: '209715200' })).limits.maxStoredFileBytes).toBe(209_715_200);
  });

  it.each(['0', '0x10', '1e6', '12.5', '-5', 'fifty'])('refuses MAX_STORED_FILE_BYTES=%s at start, naming the variable', (value) => {
    expect(() => loadConfig(testEnv({ MAX_STORED_FILE_BYTES: value }))).toThrow(/MAX_STORED_FILE_BYTES/);
  });
});
