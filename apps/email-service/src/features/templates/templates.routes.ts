// Admin: email templates under /api/admin/email/templates (authenticated scope + admin role, spec 001).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { EMAIL_CATEGORIES } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import { auditMeta } from '../admin/request-meta';
import type { TemplateActor, TemplatesService } from './templates.service';

export const templateView = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  category: z.string(),
  subject_template: z.string(),
  html_template: z.string(),
  text_template: z.string().nullable(),
  available_variables: z.record(z.string(), z.string()),
  default_variables: z.record(z.string(), z.unknown()),
  required_variables: z.array(z.string()),
  trigger_events: z.array(z.string()),
  send_delay_hours: z.number().int(),
  max_sends_per_user: z.number().int().nullable(),
  is_active: z.boolean(),
  is_system: z.boolean(),
  current_version: z.number().int(),
  total_sent: z.number().int(),
  total_opened: z.number().int(),
  total_clicked: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Identifier-style, like welcome_email: automation code refers to templates by name. */
export const templateName = z
  .string()
  .max(100)
  .regex(/^[a-z][a-z0-9_]*$/, 'must be lowercase letters, digits and underscores, starting with a letter');

const variableName = z.string().max(100).regex(/^[A-Za-z_][A-Za-z0-9_.]*$/, 'must be a placeholder name');

export const templateBody = z.object({
  name: templateName,
  display_name: z.string().trim().max(200).nullish(),
  description: z.string().max(2000).nullish(),
  category: z.enum(EMAIL_CATEGORIES).optional(),
  subject_template: z.string().min(1).max(500),
  html_template: z.string().min(1).max(500_000),
  text_template: z.string().max(500_000).nullish(),
  available_variables: z.record(z.string().max(100), z.string().max(1000)).optional(),
  default_variables: z.record(z.string(), z.unknown()).optional(),
  required_variables: z.array(variableName).max(100).optional(),
  trigger_events: z.array(z.string().min(1).max(100)).max(50).optional(),
  send_delay_hours: z.number().int().min(0).max(8760).optional(),
  max_sends_per_user: z.number().int().min(1).nullish(),
  is_active: z.boolean().optional(),
});

const listQuery = z.object({
  category: z.union([z.enum(EMAIL_CATEGORIES), z.literal('all')]).default('all'),
  search: z.string().max(200).optional(),
  status: z.enum(['active', 'inactive', 'all']).default('all'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

const idParams = z.object({ id: z.string().max(100) });
const security = [{ bearerAuth: [] }];
const tags = ['email-templates'];

/** The caller as the audit log keeps it (its id, request id and client address without the last octet). */
export function templateActorOf(req: FastifyRequest): TemplateActor {
  const { ipPrefix, requestId } = auditMeta(req);
  return { actorId: callerOf(req).userId, requestId, ipPrefix };
}

export const templatesRoutes =
  ({ templates, rateLimit, limit }: { templates: TemplatesService; rateLimit: RateLimitHandle; limit: WindowLimitName }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route(limit) };

    app.get(
      '/templates',
      {
        config,
        schema: {
          operationId: 'listEmailTemplates',
          summary: 'List email templates with filters and pagination',
          tags,
          security,
          querystring: listQuery,
          response: {
            200: z.object({
              success: z.boolean(),
              templates: z.array(templateView),
              pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
            }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const),
          },
        },
      },
      async (req) => ({ success: true, ...(await templates.list(req.query)) }),
    );

    app.post(
      '/templates',
      {
        config,
        schema: {
          operationId: 'createEmailTemplate',
          summary: 'Create an email template (version 1; audit-logged)',
          tags,
          security,
          body: templateBody,
          response: {
            201: z.object({ success: z.boolean(), template: templateView, message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 409, 413, 415, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const template = await templates.create(req.body, templateActorOf(req));
        return reply.status(201).send({ success: true, template, message: `Template ${template.name} created` });
      },
    );

    app.get(
      '/templates/:id',
      {
        config,
        schema: {
          operationId: 'getEmailTemplate',
          summary: 'One email template',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ success: z.boolean(), template: templateView }), ...errorResponses(emailErrorSchema, [401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true, template: await templates.get(req.params.id) }),
    );

    app.put(
      '/templates/:id',
      {
        config,
        schema: {
          operationId: 'updateEmailTemplate',
          summary: 'Replace an email template; writes the next version (audit-logged)',
          tags,
          security,
          params: idParams,
          body: templateBody,
          response: {
            200: z.object({ success: z.boolean(), template: templateView, message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 413, 415, 429] as const),
          },
        },
      },
      async (req) => {
        const template = await templates.update(req.params.id, req.body, templateActorOf(req));
        return { success: true, template, message: `Template ${template.name} updated to version ${template.current_version}` };
      },
    );

    app.delete(
      '/templates/:id',
      {
        config,
        schema: {
          operationId: 'deleteEmailTemplate',
          summary: 'Delete a non-system email template (audit-logged)',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses(emailErrorSchema, [401, 403, 404, 429] as const) },
        },
      },
      async (req) => {
        const { name } = await templates.remove(req.params.id, templateActorOf(req));
        return { success: true, message: `Template ${name} deleted` };
      },
    );
  };
