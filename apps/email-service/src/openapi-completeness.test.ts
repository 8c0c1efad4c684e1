// Every route of email-service documents itself (CONVENTIONS 3): an operationId, declared responses, and at
// least one error status among them. Routes hidden from the OpenAPI document (the HTML unsubscribe pages) are
// checked too: the routes are collected with an onRoute hook, not read back from /openapi.json.
import type { RouteOptions } from 'fastify';
import { buildTestApp, type TestContext } from './test/helper';

const mockRoutes: RouteOptions[] = [];
jest.mock('@story/http', () => {
  const actual = jest.requireActual<typeof import('@story/http')>('@story/http');
  return {
    ...actual,
    // The hook goes on right after the shared plumbing: every route registered after it (health, features) is seen.
    createServiceApp: async (...args: Parameters<typeof actual.createServiceApp>) => {
      const service = await actual.createServiceApp(...args);
      service.app.addHook('onRoute', (route) => {
        mockRoutes.push(route);
      });
      return service;
    },
  };
});

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);
const name = (route: RouteOptions) => `${methodsOf(route).join(',')} ${route.url}`;

it('sees the routes of every feature', () => {
  const urls = new Set(mockRoutes.map((r) => r.url));
  for (const url of ['/health', '/api/cron/process-emails', '/api/webhooks/email/resend', '/api/email/unsubscribe', '/api/admin/email/templates', '/api/user/emails/inbox']) {
    expect(urls).toContain(url);
  }
});

it('gives every route an operationId of its own', () => {
  const missing = mockRoutes.filter((r) => typeof r.schema?.operationId !== 'string').map(name);
  expect(missing).toEqual([]);
  // HEAD routes are Fastify's automatic twins of GET routes and share their schema.
  const ids = mockRoutes.filter((r) => !methodsOf(r).includes('HEAD')).map((r) => r.schema?.operationId);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  // One operation per route: a route answering several methods would repeat its operationId in the document.
  expect(mockRoutes.filter((r) => methodsOf(r).length > 1).map(name)).toEqual([]);
});

it('declares the responses of every route, an error status included', () => {
  const incomplete = mockRoutes
    .filter((r) => {
      const statuses = Object.keys((r.schema?.response ?? {}) as object).map(Number);
      return !statuses.some((s) => s >= 200 && s < 300) || !statuses.some((s) => s >= 400);
    })
    .map(name);
  expect(incomplete).toEqual([]);
});

it('lists the operationIds in the OpenAPI document', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(doc.paths['/api/cron/process-emails'].get.operationId).toBe('processEmailQueueViaGet');
  expect(doc.paths['/api/cron/process-emails'].post.operationId).toBe('processEmailQueue');
  expect(doc.paths['/api/webhooks/email/resend'].post.operationId).toBe('receiveEmailDeliveryEvent');
  expect(doc.paths['/api/email/unsubscribe']).toBeUndefined();
});
