// docker-compose.yml runs the images with NODE_ENV=production (docker/Dockerfile): every service must find
// the link bases production requires there, and presigned URLs must name the MinIO address the browser
// reaches. (`docker compose config` checks the file's syntax; this checks what the services make of it.)
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { loadPlatformConfig } from './index';

const compose = parse(readFileSync(path.resolve(__dirname, '../../../docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string> }>;
};
const dockerfile = readFileSync(path.resolve(__dirname, '../../../docker/Dockerfile'), 'utf8');

it.each([
  ['core-api', ['APP_URL'], 'http://localhost:3000'],
  ['email-service', ['APP_URL'], 'http://localhost:3001'],
  ['tools-api', [], 'http://localhost:3002'],
])('%s starts in production with the compose environment', (service, publicUrlsInProduction, publicBaseUrl) => {
  expect(dockerfile).toMatch(/ENV NODE_ENV=production HOST=0\.0\.0\.0/);
  const env: Record<string, string> = { ...compose.services[service]!.environment, NODE_ENV: 'production', HOST: '0.0.0.0', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'compose-')) };
  const config = loadPlatformConfig(env, { publicUrlsInProduction });
  expect(config.isProduction).toBe(true);
  expect(config.publicBaseUrl).toBe(publicBaseUrl);
  expect(config.appUrl).toBe('http://localhost:5173');
  expect(config.storage).toMatchObject({ driver: 's3', endpoint: 'http://minio:9000', publicEndpoint: 'http://localhost:9000' });
  expect(config.rateLimit.redisUrl).toBe('redis://redis:6379');
  expect(config.email).toMatchObject({ driver: 'smtp', smtpUrl: 'smtp://mailpit:1025' });
  // Without the public addresses the same environment stops the service.
  const { PUBLIC_BASE_URL: _drop, ...withoutBase } = env;
  expect(() => loadPlatformConfig(withoutBase, { publicUrlsInProduction })).toThrow(/PUBLIC_BASE_URL: is required when NODE_ENV=production/);
});
