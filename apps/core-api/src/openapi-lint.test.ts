// The three OpenAPI documents a client generator can trust (CONTRACTS §1: every service serves its OpenAPI 3
// document): Redocly's recommended rules report no error, and every endpoint of the spec's tables that a
// service serves appears in its document verbatim (tools/spec-endpoints.json: the tables of spec 000-002,
// [param] written {param}). Redocly's linter is ESM-only, so it runs as CI runs it: `tools/lint-openapi.ts
// --json` in a child process.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildTestApp } from './test/helper';

const root = path.resolve(__dirname, '../../..');
const specEndpoints = JSON.parse(readFileSync(path.join(root, 'tools/spec-endpoints.json'), 'utf8')) as Record<string, { method: string; path: string }[]>;

interface Report {
  service: string;
  problems: { severity: string; rule: string; message: string; where?: string }[];
  paths: Record<string, string[]>;
}

let reports: Report[];
let exitCode: number;
beforeAll(async () => {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  const run = await promisify(execFile)(tsx, ['--tsconfig', 'tsconfig.base.json', 'tools/lint-openapi.ts', '--json'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ stdout: r.stdout, code: 0 }),
    (err: { stdout: string; code: number }) => ({ stdout: err.stdout, code: err.code }),
  );
  exitCode = run.code;
  reports = JSON.parse(run.stdout.trim().split('\n').pop()!) as Report[];
}, 120_000);

it.each(['core-api', 'email-service', 'tools-api'])('%s: the document passes Redocly recommended rules with no error', (service) => {
  const report = reports.find((r) => r.service === service)!;
  expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
  // The only accepted findings are tools-api's HTML page paths, which spec 002 writes with the slash.
  expect(report.problems.filter((p) => p.severity === 'accepted').map((p) => p.where)).toEqual(
    service === 'tools-api' ? ['#/paths/~1{tool}~1', '#/paths/~1{tool}~1browse~1', '#/paths/~1{tool}~1{shareCode}~1', '#/paths/~1embed~1{tool}~1{shareCode}~1'] : [],
  );
  expect(Object.keys(report.paths).filter((p) => p.startsWith('/api') && p.endsWith('/'))).toEqual([]);
  expect(exitCode).toBe(0);
});

it('lists collection routes without a trailing slash, and both forms still answer', async () => {
  const core = reports.find((r) => r.service === 'core-api')!;
  expect(core.paths['/api/campaigns']).toEqual(expect.arrayContaining(['get', 'post']));
  expect(core.paths['/api/campaigns/']).toBeUndefined();
  const t = await buildTestApp();
  try {
    for (const url of ['/api/campaigns', '/api/campaigns/']) expect((await t.app.inject({ url })).statusCode).toBe(401);
  } finally {
    await t.close();
  }
});

/**
 * Spec 002 writes one path two ways: `GET /api/{tool}/responses/[id]` and PATCH/DELETE
 * `/api/{tool}/responses/{responseId}`. An OpenAPI document has one template per path, so it follows
 * the two rows that agree.
 */
const SPEC_SELF_CONFLICTS = new Set(['tools-api GET /api/{tool}/responses/{id}']);

it('lists every spec endpoint a service has under the path the spec writes', () => {
  const wrong: string[] = [];
  let checked = 0;
  for (const { service, paths } of reports) {
    const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');
    const byShape = new Map(Object.keys(paths).map((p) => [shape(p), p]));
    for (const { method, path: specPath } of specEndpoints[service] ?? []) {
      // "Exists in the service": the same route shape is documented with this method, whatever its parameters are named.
      const documented = byShape.get(shape(specPath));
      if (!documented || !paths[documented]!.includes(method.toLowerCase())) continue;
      checked++;
      if (documented !== specPath && !SPEC_SELF_CONFLICTS.has(`${service} ${method} ${specPath}`)) wrong.push(`${service} ${method} ${specPath} (documented as ${documented})`);
    }
  }
  expect(wrong).toEqual([]);
  expect(checked).toBeGreaterThan(20);
});
