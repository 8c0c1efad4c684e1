// email-service configuration: the shared platform settings plus queue settings (the limits of spec 001
// are named in the limiter's table, libs/http/src/limits).
import { z } from 'zod';
import { loadPlatformConfig, parseEnv, type PlatformConfig } from '@story/config';

const emailServiceEnv = z.object({
  EMAIL_QUEUE_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(50).describe('Queue batch size per run'),
  EMAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3).describe('Send attempts before a row fails'),
  EMAIL_PROCESSING_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000).describe('Queue processing interval'),
});

export interface EmailServiceConfig extends PlatformConfig {
  service: 'email-service';
  port: number;
  queue: { batchSize: number; maxAttempts: number; intervalMs: number };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): EmailServiceConfig {
  // Waitlist verification links point at the web application (APP_URL); unsubscribe links at PUBLIC_BASE_URL.
  const platform = loadPlatformConfig(env, { publicUrlsInProduction: ['APP_URL'] });
  const own = parseEnv(emailServiceEnv, env);
  return {
    ...platform,
    service: 'email-service',
    port: platform.ports.emailService,
    queue: { batchSize: own.EMAIL_QUEUE_BATCH_SIZE, maxAttempts: own.EMAIL_MAX_ATTEMPTS, intervalMs: own.EMAIL_PROCESSING_INTERVAL_MS },
  };
}
