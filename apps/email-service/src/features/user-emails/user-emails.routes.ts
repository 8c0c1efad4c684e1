// The caller's own emails and preferences under /api/user/emails (authenticated scope, spec 001).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import type { UserEmailsService } from './user-emails.service';

const emailView = z.object({
  id: z.string(),
  subject: z.string(),
  html_content: z.string(),
  text_content: z.string().nullable(),
  template_variables: z.record(z.string(), z.unknown()),
  status: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  opened_at: z.string().nullable(),
  clicked_at: z.string().nullable(),
  email_templates: z.object({ id: z.string(), name: z.string(), display_name: z.string().nullable(), category: z.string() }).nullable(),
});

const listResponse = z.object({
  success: z.boolean(),
  emails: z.array(emailView),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
});

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  unread_only: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

const markBody = z.object({
  email_ids: z.array(z.uuid()).min(1).max(100),
  action: z.enum(['mark_opened', 'mark_clicked']),
});

// Transactional and system mail cannot be opted out of (user_email_preferences.unsubscribed_all).
const OPT_OUT_CATEGORIES = ['marketing', 'onboarding', 'reminder'] as const;

const preferencesView = z.object({
  unsubscribed_categories: z.array(z.string()),
  unsubscribed_all: z.boolean(),
  email_enabled: z.boolean(),
  marketing_emails: z.boolean(),
  weekly_digest: z.boolean(),
  story_updates: z.boolean(),
  family_invitations: z.boolean(),
  writing_reminders: z.boolean(),
});

const preferencesBody = z.strictObject({
  unsubscribed_categories: z.array(z.enum(OPT_OUT_CATEGORIES)).max(10).optional(),
  unsubscribed_all: z.boolean().optional(),
  email_enabled: z.boolean().optional(),
  marketing_emails: z.boolean().optional(),
  weekly_digest: z.boolean().optional(),
  story_updates: z.boolean().optional(),
  family_invitations: z.boolean().optional(),
  writing_reminders: z.boolean().optional(),
});

const security = [{ bearerAuth: [] }];
const tags = ['user-emails'];
const messageResponse = z.object({ success: z.boolean(), message: z.string() });

export const userEmailsRoutes =
  ({ userEmails, rateLimit, limit }: { userEmails: UserEmailsService; rateLimit: RateLimitHandle; limit: WindowLimitName }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route(limit) };

    app.get(
      '/received',
      {
        config,
        schema: {
          operationId: 'listReceivedEmails',
          summary: "The caller's emails, newest first",
          tags,
          security,
          querystring: listQuery,
          response: { 200: listResponse, ...errorResponses(emailErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => ({ success: true, ...(await userEmails.listReceived(callerOf(req).userId, req.query)) }),
    );

    app.post(
      '/received',
      {
        config,
        schema: {
          operationId: 'markReceivedEmails',
          summary: "Mark the caller's emails opened or clicked",
          tags,
          security,
          body: markBody,
          response: { 200: messageResponse, ...errorResponses(emailErrorSchema, [400, 401, 413, 415, 429] as const) },
        },
      },
      async (req) => {
        const marked = await userEmails.mark(callerOf(req).userId, req.body.email_ids, req.body.action);
        return { success: true, message: `Marked ${marked} email(s) as ${req.body.action === 'mark_clicked' ? 'clicked' : 'opened'}` };
      },
    );

    app.get(
      '/inbox',
      {
        config,
        schema: {
          operationId: 'listInboxEmails',
          summary: "The caller's sent emails, newest first",
          tags,
          security,
          querystring: listQuery,
          response: { 200: listResponse, ...errorResponses(emailErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => ({ success: true, ...(await userEmails.listInbox(callerOf(req).userId, req.query)) }),
    );

    app.post(
      '/:id/read',
      {
        config,
        schema: {
          operationId: 'markEmailRead',
          summary: "Mark one of the caller's emails opened",
          tags,
          security,
          params: z.object({ id: z.string().max(100) }),
          response: { 200: messageResponse, ...errorResponses(emailErrorSchema, [401, 404, 429] as const) },
        },
      },
      async (req) => {
        await userEmails.markRead(callerOf(req).userId, req.params.id);
        return { success: true, message: 'Email marked as read' };
      },
    );

    app.get(
      '/preferences',
      {
        config,
        schema: {
          operationId: 'getEmailPreferences',
          summary: "The caller's email preferences",
          tags,
          security,
          response: { 200: z.object({ success: z.boolean(), preferences: preferencesView }), ...errorResponses(emailErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => ({ success: true, preferences: await userEmails.getPreferences(callerOf(req).userId) }),
    );

    app.post(
      '/preferences',
      {
        config,
        schema: {
          operationId: 'updateEmailPreferences',
          summary: "Update the caller's email preferences (fields not sent are kept)",
          tags,
          security,
          body: preferencesBody,
          response: {
            200: z.object({ success: z.boolean(), preferences: preferencesView, message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 413, 415, 429] as const),
          },
        },
      },
      async (req) => ({ success: true, preferences: await userEmails.updatePreferences(callerOf(req).userId, req.body), message: 'Email preferences updated' }),
    );
  };
