// A complete, valid environment for building any service in tests: fixed secrets, a temp DATA_DIR,
// limits scaled up so ordinary tests do not trip them (rate-limit tests pass RATE_LIMIT_SCALE=1).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'story-data-')),
    JWT_SECRET: 'test-jwt-secret-that-is-long-enough-0123456789',
    UPLOAD_TICKET_SECRET: 'test-upload-ticket-secret-long-enough-0123456789',
    CRON_SECRET: 'test-cron-secret-0123456789',
    CORS_ORIGINS: 'https://app.example.test',
    RATE_LIMIT_SCALE: '100',
    // Tests change roles and sessions with direct SQL and read them back at once; the cached path has its own
    // tests (libs/auth sessions.test.ts), where the change arrives through NOTIFY.
    SESSION_CACHE_MS: '0',
    ...overrides,
  };
}
