// tools-api configuration: the shared platform settings plus this service's port.
import { loadPlatformConfig, type PlatformConfig } from '@story/config';

export interface ToolsApiConfig extends PlatformConfig {
  service: 'tools-api';
  port: number;
  limits: { generalPerMinute: number };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): ToolsApiConfig {
  const platform = loadPlatformConfig(env);
  return { ...platform, service: 'tools-api', port: platform.ports.toolsApi, limits: { generalPerMinute: 300 } };
}
