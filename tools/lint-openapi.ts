// Lints the OpenAPI document of each service with Redocly's recommended rules (npm run lint:openapi).
// Each app is built in-process with a lazy database client (no query runs while the routes are
// registered), its document taken from /openapi.json, and every problem printed; exits 1 on any error.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createDbClient } from '@story/db';
import type { App } from '@story/http';
import * as core from '../apps/core-api/src/app';
import * as coreConfig from '../apps/core-api/src/config';
import * as email from '../apps/email-service/src/app';
import * as emailConfig from '../apps/email-service/src/config';
import * as tools from '../apps/tools-api/src/app';
import * as toolsConfig from '../apps/tools-api/src/config';

export interface OpenApiProblem {
  severity: 'error' | 'warn' | 'accepted';
  rule: string;
  message: string;
  where?: string;
}

/**
 * The one accepted exception, kept narrow: tools-api's public HTML pages, whose paths spec 002 writes
 * with a trailing slash ("Public page routes follow /{tool}/, /{tool}/{shareCode}/ and /{tool}/browse/")
 * and which answer only there. Every API path must pass no-path-trailing-slash.
 */
export const ACCEPTED = [{ rule: 'no-path-trailing-slash', where: /^#\/paths\/(~1embed)?~1\{tool\}~1(\{shareCode\}~1|browse~1)?$/ }];

/** Redocly's recommended ruleset over one OpenAPI document (`accepted`: problems matching ACCEPTED). */
export async function lintOpenApiDocument(document: unknown): Promise<OpenApiProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const results = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return results
    .filter((p) => p.severity === 'error' || p.severity === 'warn')
    .map((p) => {
      const where = p.location[0]?.pointer;
      const accepted = ACCEPTED.some((a) => a.rule === p.ruleId && where !== undefined && a.where.test(where));
      return { severity: accepted ? 'accepted' : (p.severity as 'error' | 'warn'), rule: p.ruleId, message: p.message, where };
    });
}

const env = (): Record<string, string | undefined> => ({
  ...process.env,
  NODE_ENV: 'development',
  LOG_LEVEL: 'silent',
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'lint-openapi-')),
  JWT_SECRET: 'lint-openapi-jwt-secret-long-enough-0123456789',
  UPLOAD_TICKET_SECRET: 'lint-openapi-upload-ticket-secret-0123456789',
  DATABASE_URL: process.env['DATABASE_URL'] ?? 'postgres://lint@127.0.0.1:1/none',
});

/** The /openapi.json of each service, built in-process. */
export async function serviceDocuments(): Promise<{ service: string; document: unknown }[]> {
  const builders: { service: string; build: (database: ReturnType<typeof createDbClient>) => Promise<App> }[] = [
    { service: 'core-api', build: (database) => core.buildApp({ config: coreConfig.loadConfig(env()), deps: { database } }) },
    { service: 'email-service', build: (database) => email.buildApp({ config: emailConfig.loadConfig(env()), deps: { database } }) },
    { service: 'tools-api', build: (database) => tools.buildApp({ config: toolsConfig.loadConfig(env()), deps: { database } }) },
  ];
  const documents: { service: string; document: unknown }[] = [];
  for (const { service, build } of builders) {
    const database = createDbClient(env()['DATABASE_URL'] ?? '');
    const app = await build(database);
    try {
      await app.ready();
      documents.push({ service, document: (await app.inject({ url: '/openapi.json' })).json() });
    } finally {
      await app.close();
      await database.close();
    }
  }
  return documents;
}

/** Prints each problem and a count per service (`--json`: one JSON report, for the test), exits 1 on any error. */
async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const report: { service: string; problems: OpenApiProblem[]; paths: Record<string, string[]> }[] = [];
  for (const { service, document } of await serviceDocuments()) {
    const problems = await lintOpenApiDocument(document);
    const paths = Object.fromEntries(Object.entries((document as { paths: Record<string, object> }).paths).map(([p, ops]) => [p, Object.keys(ops)]));
    report.push({ service, problems, paths });
  }
  const errors = report.reduce((n, r) => n + r.problems.filter((p) => p.severity === 'error').length, 0);
  if (json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    for (const { service, problems } of report) {
      for (const p of problems) process.stdout.write(`${service}: ${p.severity} ${p.rule} ${p.where ?? ''} ${p.message}\n`);
      const count = problems.filter((p) => p.severity === 'error').length;
      const accepted = problems.filter((p) => p.severity === 'accepted').length;
      process.stdout.write(`${service}: ${count} errors, ${problems.length - count - accepted} warnings, ${accepted} accepted (spec 002 page paths)\n`);
    }
  }
  process.exit(errors > 0 ? 1 : 0);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`lint-openapi failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
