// /api/auth/identities (spec 000 Authentication 2, CONTRACTS §10): the caller's sign-in methods, and
// unlinking a social one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { callerOf, refuseImpersonation } from '@story/auth';
import { AUTH_PROVIDERS } from '@story/db';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { IdentitiesService } from './identities';

const methodSchema = z.object({
  method: z.enum(['password', 'magic_link', ...AUTH_PROVIDERS]),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  linked_at: z.string().nullable(),
  removable: z.boolean(),
});
const identitiesResult = z.object({ identities: z.array(methodSchema) });

const DESCRIPTION =
  'Ways in: password (when the account has one), magic_link (when the email is verified: only a verified address is known to ' +
  'be the holder\'s mailbox, so an unverified one is not counted or listed, although a link can still be asked for), and each ' +
  'linked social identity (google, facebook, apple).';

export const identitiesRoutes =
  ({ identities, requireAuth }: { identities: IdentitiesService; requireAuth: onRequestAsyncHookHandler | preHandlerAsyncHookHandler }): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', requireAuth as onRequestAsyncHookHandler);

    app.get(
      '/',
      {
        schema: {
          operationId: 'listSignInMethods',
          summary: "List the caller's sign-in methods",
          description: DESCRIPTION,
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          response: { 200: identitiesResult, ...errorResponses(coreErrorSchema, [401] as const) },
        },
      },
      async (req) => ({ identities: await identities.list(callerOf(req).userId) }),
    );

    app.delete(
      '/:provider',
      {
        // Changing how the account signs in is its owner's decision alone (CONTRACTS §7).
        onRequest: refuseImpersonation('Unlinking a sign-in method'),
        schema: {
          operationId: 'unlinkSignInMethod',
          summary: 'Unlink a social sign-in (google, facebook or apple) from the caller',
          description:
            `${DESCRIPTION} Removes every identity of the provider and answers the remaining methods. An unknown provider ` +
            'answers 400, a provider not linked 404, and unlinking the last way in 409 (nothing changes then).',
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          params: z.object({ provider: z.enum(AUTH_PROVIDERS) }),
          response: { 200: identitiesResult, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409] as const) },
        },
      },
      async (req) => ({ identities: await identities.unlink(callerOf(req).userId, req.params.provider) }),
    );
  };
