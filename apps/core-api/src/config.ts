// core-api configuration: the shared platform settings plus this service's port and limits.
import { loadPlatformConfig, type PlatformConfig } from '@story/config';

export interface CoreApiConfig extends PlatformConfig {
  service: 'core-api';
  port: number;
  limits: {
    /** Spec 000 Limits: authentication 5 per minute, general API 100 per minute. */
    authPerMinute: number;
    generalPerMinute: number;
    /** Session (refresh token) lifetime. */
    sessionDays: number;
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): CoreApiConfig {
  const platform = loadPlatformConfig(env);
  return {
    ...platform,
    service: 'core-api',
    port: platform.ports.coreApi,
    limits: { authPerMinute: 5, generalPerMinute: 100, sessionDays: 30 },
  };
}
