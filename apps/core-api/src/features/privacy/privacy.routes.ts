// Right of access and erasure (spec 000 User, privacy; CONTRACTS §9), authenticated scope:
// GET /api/privacy/access, POST /api/privacy/erase, DELETE /api/user/account.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, refuseImpersonation } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { AccountErasureService } from './account-erasure.service';
import type { PrivacyAccess } from './privacy-access';

const tags = ['privacy'];
const security = [{ bearerAuth: [] }];
const erased = z.object({ success: z.literal(true), message: z.string(), filesScheduledForDeletion: z.number().int() });

const ERASURE_RULE =
  'Removes the account and everything it owns in one transaction: profile, settings, sessions, sign-in identities, owned ' +
  'campaigns and their stories, stories, recordings, conversations, images, imports, books and exports, family groups it ' +
  'created, gifts it bought, achievements, tools content. Queued emails are anonymised (spec 001 Limits); audit rows stay, ' +
  'naming who acted on whom (CONTRACTS §7), and an account.erased row records who erased it. Stored files are deleted by a ' +
  'background sweep retried until done. The session ends with it. An impersonation token is refused (403) and nothing changes.';

/** Who acts: the admin behind an impersonation token (refused above; kept so the audit row could never lose them), else the caller. */
const actorOf = (req: Parameters<typeof callerOf>[0]) => callerOf(req).actorId ?? callerOf(req).userId;

export const privacyRoutes =
  ({ erasure, access }: { erasure: AccountErasureService; access: PrivacyAccess }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/privacy/access',
      {
        schema: {
          operationId: 'privacyAccess',
          summary: 'Right of access: a download of everything held about the caller',
          description:
            'Answers {success, message, downloadUrl}. downloadUrl (called with the same Bearer token) streams a zip of data.json ' +
            '(every row the account owns) and its media files; while it is being made it answers 202 with the export to poll. ' +
            'A finished, unexpired export is reused; otherwise a new one is queued.',
          tags,
          security,
          response: {
            200: z.object({ success: z.literal(true), message: z.string(), downloadUrl: z.string(), exportId: z.uuid(), status: z.string() }),
            ...errorResponses(coreErrorSchema, [401, 429] as const),
          },
        },
      },
      async (req) => access.link(callerOf(req).userId),
    );

    app.post(
      '/api/privacy/erase',
      {
        onRequest: refuseImpersonation('Erasing the account'),
        schema: {
          operationId: 'privacyErase',
          summary: 'Right to erasure: permanently delete the account and its data',
          description: `${ERASURE_RULE} confirmEmail must equal the account email (case-insensitive), else 400 naming confirmEmail and nothing changes.`,
          tags,
          security,
          body: z.strictObject({ confirmEmail: z.string().min(1).max(320), reason: z.string().max(1000).optional() }),
          response: { 200: erased, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => {
        const out = await erasure.erase(callerOf(req).userId, { confirmEmail: req.body.confirmEmail, reason: req.body.reason ?? null, via: 'privacy.erase', actorId: actorOf(req) });
        return { success: true as const, message: 'Your account and its data have been erased.', filesScheduledForDeletion: out.files };
      },
    );

    app.delete(
      '/api/user/account',
      {
        onRequest: refuseImpersonation('Deleting the account'),
        schema: {
          operationId: 'deleteAccount',
          summary: 'Delete the caller’s account permanently',
          description: `${ERASURE_RULE} Needs no body; afterwards sign-in is refused.`,
          tags,
          security,
          response: { 200: erased, ...errorResponses(coreErrorSchema, [401, 403, 404, 429] as const) },
        },
      },
      async (req) => {
        const out = await erasure.erase(callerOf(req).userId, { via: 'user.account.delete', actorId: actorOf(req) });
        return { success: true as const, message: 'Your account and its data have been deleted.', filesScheduledForDeletion: out.files };
      },
    );
  };
