// tools-api configuration: the shared platform settings plus this service's port, limits and workers.
import { loadPlatformConfig, type PlatformConfig } from '@story/config';

export interface ToolsApiConfig extends PlatformConfig {
  service: 'tools-api';
  port: number;
  limits: {
    /** Largest PDF accepted for flashcards and flipbooks (413 above it). */
    maxPdfBytes: number;
    /** Largest image accepted for flashcards (OCR). */
    maxImageBytes: number;
  };
  workers: {
    /** How often expired anonymous content is purged. */
    purgeIntervalMs: number;
    /** How often the job runner looks for due jobs when idle (a queued bulk job wakes it at once). */
    pollIntervalMs: number;
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): ToolsApiConfig {
  const platform = loadPlatformConfig(env);
  return {
    ...platform,
    service: 'tools-api',
    port: platform.ports.toolsApi,
    limits: { maxPdfBytes: 20 * 1024 * 1024, maxImageBytes: 10 * 1024 * 1024 },
    workers: { purgeIntervalMs: 15 * 60_000, pollIntervalMs: 5_000 },
  };
}

/** Public address of tools-api for share URLs and canonical links (PUBLIC_BASE_URL, else its own address). */
export const toolsPublicBaseUrl = (config: ToolsApiConfig) => (config.publicBaseUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
