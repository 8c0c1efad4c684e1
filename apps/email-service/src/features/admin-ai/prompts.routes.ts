// Admin AI prompt templates (dashboard ai-management/prompts: new, [id], edit, history). Spec 001 names no
// routes for them; these are:
//   GET /api/admin/ai/prompts              POST /api/admin/ai/prompts            GET|PUT /api/admin/ai/prompts/:id
//   GET /api/admin/ai/prompts/:id/versions POST the same (an edit: a new current version)
//   GET /api/admin/ai/prompts/:id/diff?from=&to=   POST /api/admin/ai/prompts/:id/rollback {version}
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { requireAdminWrite } from '../admin/admin-access';
import { actorOf, idParams, recordSchema, security } from '../admin/admin-views';
import type { PromptsService } from './prompts.service';

const tags = ['admin-ai'];
const versionBody = z.object({
  content: z.string().min(1).max(50_000),
  variables: z.array(z.string().trim().max(100).regex(/^[a-zA-Z_][\w.]*$/)).max(50).optional(),
  model_settings: z.record(z.string(), z.unknown()).optional(),
  change_note: z.string().trim().max(1000).nullish(),
});
const createBody = versionBody.extend({
  key: z.string().trim().regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/, 'dot-separated lowercase words, e.g. story_conversion.writer').max(100),
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).nullish(),
  category: z.string().trim().max(100).nullish(),
});
const updateBody = z.object({ name: z.string().trim().min(1).max(200).optional(), description: z.string().trim().max(2000).nullish(), category: z.string().trim().max(100).nullish(), is_active: z.boolean().optional() });
const templateAnswer = z.object({ success: z.boolean(), template: recordSchema });
const version = z.coerce.number().int().min(1);

export const promptsRoutes =
  ({ prompts, rateLimit }: { prompts: PromptsService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.admin') };
    const write = { config, onRequest: requireAdminWrite };
    const base = '/api/admin/ai/prompts';

    app.get(base, {
      config,
      schema: {
        operationId: 'listAiPrompts', summary: 'Prompt templates with their active text, and the prompt keys the code reads', tags, security,
        response: {
          200: z.object({ success: z.boolean(), templates: z.array(recordSchema), managed_keys: z.array(z.object({ key: z.string(), used_by: z.string(), has_template: z.boolean() })) }),
          ...errorResponses(emailErrorSchema, [401, 403, 429] as const),
        },
      },
    }, async () => ({ success: true, ...(await prompts.list()) }));

    app.post(base, {
      ...write,
      schema: { operationId: 'createAiPrompt', summary: 'Create a prompt template (version 1, active)', tags, security, body: createBody, response: { 201: templateAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 409, 413, 429] as const) } },
    }, async (req, reply) => reply.status(201).send({ success: true, template: await prompts.create(req.body, actorOf(req)) }));

    app.get(`${base}/:id`, {
      config,
      schema: { operationId: 'getAiPrompt', summary: 'A prompt template with its active version', tags, security, params: idParams, response: { 200: templateAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) } },
    }, async (req) => ({ success: true, template: await prompts.get(req.params.id) }));

    app.put(`${base}/:id`, {
      ...write,
      schema: { operationId: 'updateAiPrompt', summary: 'Rename, describe or switch a prompt template on/off (its text changes through versions)', tags, security, params: idParams, body: updateBody, response: { 200: templateAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) } },
    }, async (req) => ({ success: true, template: await prompts.update(req.params.id, req.body, actorOf(req)) }));

    app.get(`${base}/:id/versions`, {
      config,
      schema: {
        operationId: 'listAiPromptVersions', summary: 'Version history, newest first', tags, security, params: idParams,
        response: { 200: z.object({ success: z.boolean(), current_version: z.number().int(), versions: z.array(recordSchema) }), ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) },
      },
    }, async (req) => ({ success: true, ...(await prompts.versions(req.params.id)) }));

    app.post(`${base}/:id/versions`, {
      ...write,
      schema: { operationId: 'addAiPromptVersion', summary: 'Edit the prompt: a new version that becomes active', tags, security, params: idParams, body: versionBody, response: { 201: templateAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 413, 429] as const) } },
    }, async (req, reply) => reply.status(201).send({ success: true, template: await prompts.addVersion(req.params.id, req.body, actorOf(req)) }));

    app.get(`${base}/:id/diff`, {
      config,
      schema: {
        operationId: 'diffAiPromptVersions', summary: 'Line diff between two versions', tags, security, params: idParams, querystring: z.object({ from: version, to: version }),
        response: {
          200: z.object({
            success: z.boolean(), from: z.number().int(), to: z.number().int(), added: z.number().int(), removed: z.number().int(), unified: z.string(),
            lines: z.array(z.object({ op: z.enum(['equal', 'add', 'remove']), text: z.string(), oldLine: z.number().int().optional(), newLine: z.number().int().optional() })),
          }),
          ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const),
        },
      },
    }, async (req) => ({ success: true, ...(await prompts.diff(req.params.id, req.query.from, req.query.to)) }));

    app.post(`${base}/:id/rollback`, {
      ...write,
      schema: { operationId: 'rollbackAiPrompt', summary: 'Make an earlier version active again', tags, security, params: idParams, body: z.object({ version: z.number().int().min(1) }), response: { 200: templateAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 429] as const) } },
    }, async (req) => ({ success: true, template: await prompts.rollback(req.params.id, req.body.version, actorOf(req)) }));
  };
