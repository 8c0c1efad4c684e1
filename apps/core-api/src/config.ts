// core-api configuration: the shared platform settings plus this service's port and limits (rate limits
// are named in the limiter's table, libs/http/src/limits).
import { z } from 'zod';
import { ConfigError, loadOAuthConfig, loadPlatformConfig, type OAuthConfig, type PlatformConfig } from '@story/config';
import { OFFLINE_BILLING_REFUSAL } from '@story/providers';

/** Spec 000 Limits: a stored file is at most 50 MB. */
export const DEFAULT_MAX_STORED_FILE_BYTES = 50 * 1024 * 1024;

export interface CoreApiConfig extends PlatformConfig {
  service: 'core-api';
  port: number;
  limits: {
    /** Session (refresh token) lifetime. */
    sessionDays: number;
    /** MAX_STORED_FILE_BYTES: the largest file stored (spec 000: 50 MB); a benchmark may raise it on its own run. */
    maxStoredFileBytes: number;
    /** ARCHIVE_PART_MAX_BYTES: a memories archive over this is offered folder by folder, folders split into parts of at most this (spec 000: 1 GB). */
    archivePartBytes: number;
  };
  /** Social sign-in providers (CONTRACTS §10): only the configured ones are present. */
  oauth: OAuthConfig;
}

// Decimal digits only: Number() would also read "0x10" or "1e3".
const maxStoredFileBytes = z
  .string()
  .regex(/^\d+$/, 'MAX_STORED_FILE_BYTES must be a whole number of bytes (decimal digits)')
  .transform(Number)
  .pipe(z.number().int().min(1, 'MAX_STORED_FILE_BYTES must be at least 1').max(Number.MAX_SAFE_INTEGER))
  .describe('Largest stored file in bytes (spec 000 Limits: 50 MB)');

/** Spec 000 Limits: a single archive zip only when the estimate is at most 1 GB. */
export const DEFAULT_ARCHIVE_PART_BYTES = 1_000_000_000;

export function loadConfig(env: Record<string, string | undefined> = process.env): CoreApiConfig {
  // Verification, magic-link, invitation and gift links point at the web application (APP_URL).
  const platform = loadPlatformConfig(env, { publicUrlsInProduction: ['APP_URL'] });
  // CONTRACTS §9: core-api takes the payments (gifts); the offline recorder would hand out paid plans for
  // nothing, so a production start needs the operator to say so.
  if (platform.isProduction && platform.providers.BILLING_PROVIDER === 'offline' && !platform.providers.BILLING_OFFLINE_ACKNOWLEDGED) {
    throw new ConfigError([OFFLINE_BILLING_REFUSAL]);
  }
  const raw = env['MAX_STORED_FILE_BYTES']?.trim();
  const parsed = maxStoredFileBytes.safeParse(raw ? raw : String(DEFAULT_MAX_STORED_FILE_BYTES));
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues[0]?.message ?? 'MAX_STORED_FILE_BYTES'}`);
  const partRaw = env['ARCHIVE_PART_MAX_BYTES']?.trim();
  const archivePartBytes = partRaw ? Number(partRaw) : DEFAULT_ARCHIVE_PART_BYTES;
  if (!/^\d*$/.test(partRaw ?? '') || !Number.isSafeInteger(archivePartBytes) || archivePartBytes < 1024) {
    throw new Error('Invalid configuration: ARCHIVE_PART_MAX_BYTES must be a whole number of bytes, at least 1024');
  }
  return {
    ...platform,
    service: 'core-api',
    port: platform.ports.coreApi,
    limits: { sessionDays: 30, maxStoredFileBytes: parsed.data, archivePartBytes },
    oauth: loadOAuthConfig(env, platform.publicBaseUrl ?? `http://${platform.host}:${platform.ports.coreApi}`),
  };
}
