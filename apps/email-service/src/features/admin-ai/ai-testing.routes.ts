// Conversation testing and AI debugging (spec 001 "Admin application reference"):
//   GET  /api/admin/test-conversations       runs, newest first      POST the same: run a scripted test (admin)
//   GET  /api/admin/conversation-test-results?test_id=                GET /api/admin/test-analytics?days=
//   GET  /api/admin/test-provider?feature=    one real call to the provider serving that feature (admin: it costs)
//   GET  /api/admin/debug-test-data           GET /api/debug-ai       GET /api/debug-usage?days=
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { requireAdminWrite } from '../admin/admin-access';
import { actorOf, pageQuery, recordSchema, security } from '../admin/admin-views';
import type { AiDebugService } from './ai-debug.service';
import type { ConversationTestsService } from './conversation-tests.service';

const tags = ['admin-ai'];
const open = z.object({ success: z.boolean() }).catchall(z.unknown());
const reads = errorResponses(emailErrorSchema, [400, 401, 403, 429] as const);
const days = z.coerce.number().int().min(1).max(365);

export const aiTestingRoutes =
  ({ tests, debug, rateLimit }: { tests: ConversationTestsService; debug: AiDebugService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.admin') };

    app.post('/api/admin/test-conversations', {
      config,
      onRequest: requireAdminWrite,
      schema: {
        operationId: 'runTestConversation', summary: 'Run a scripted storyteller against an interviewer prompt version and keep the checked turns', tags, security,
        body: z.object({
          name: z.string().trim().max(200).nullish(),
          prompt_key: z.string().trim().min(1).max(100).default('conversation.interviewer'),
          version: z.number().int().min(1).optional(),
          answers: z.array(z.string().trim().min(1).max(5000)).min(1).max(10),
          topic: z.string().trim().max(200).nullish(),
        }),
        response: { 201: z.object({ success: z.boolean(), test: recordSchema }), ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 413, 429] as const) },
      },
    }, async (req, reply) => reply.status(201).send({ success: true, test: await tests.run(req.body, actorOf(req).actorId) }));

    app.get('/api/admin/test-conversations', {
      config,
      schema: { operationId: 'listTestConversations', summary: 'Conversation test runs, newest first', tags, security, querystring: z.object(pageQuery), response: { 200: z.object({ success: z.boolean(), tests: z.array(recordSchema), total: z.number().int() }), ...reads } },
    }, async (req) => ({ success: true, ...(await tests.list(req.query)) }));

    app.get('/api/admin/conversation-test-results', {
      config,
      schema: {
        operationId: 'getConversationTestResults', summary: 'Turn-by-turn results of one run (test_id) or of the latest runs', tags, security,
        querystring: z.object({ test_id: z.uuid().optional(), limit: pageQuery.limit.default(5) }),
        response: { 200: z.object({ success: z.boolean(), results: z.array(recordSchema) }), ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) },
      },
    }, async (req) => ({ success: true, ...(await tests.results(req.query)) }));

    app.get('/api/admin/test-analytics', {
      config,
      schema: { operationId: 'getConversationTestAnalytics', summary: 'Pass rates and timings per prompt version and provider', tags, security, querystring: z.object({ days: days.default(30) }), response: { 200: open, ...reads } },
    }, async (req) => ({ success: true, ...(await tests.analytics(req.query.days)) }));

    app.get('/api/admin/test-provider', {
      config,
      onRequest: requireAdminWrite,
      schema: {
        operationId: 'testAiProvider', summary: 'One short real call to the LLM provider that serves a feature (ok, latency, sample)', tags, security,
        querystring: z.object({ feature: z.string().trim().min(1).max(100).default('conversation:chat') }),
        response: { 200: open, ...reads },
      },
    }, async (req) => ({ success: true, ...(await tests.testProvider(req.query.feature, actorOf(req).actorId)) }));

    app.get('/api/admin/debug-test-data', {
      config,
      schema: { operationId: 'getConversationTestDebugData', summary: 'The latest test runs in full and the usage rows they made', tags, security, querystring: z.object({ limit: pageQuery.limit.default(10) }), response: { 200: open, ...reads } },
    }, async (req) => ({ success: true, ...(await tests.debugData(req.query.limit)) }));

    app.get('/api/debug-ai', {
      config,
      schema: { operationId: 'debugAi', summary: 'The AI configuration in force: provider per feature, prompt sources, last 24 h health, recent errors', tags, security, response: { 200: open, ...errorResponses(emailErrorSchema, [401, 403, 429] as const) } },
    }, async () => ({ success: true, ...(await debug.debugAi()) }));

    app.get('/api/debug-usage', {
      config,
      schema: { operationId: 'debugUsage', summary: 'AI usage and cost from ai_usage_logs: totals, per feature, per provider, per day, top users', tags, security, querystring: z.object({ days: days.default(7) }), response: { 200: open, ...reads } },
    }, async (req) => ({ success: true, ...(await debug.debugUsage(req.query.days)) }));
  };
