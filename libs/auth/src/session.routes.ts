// GET /api/auth/session on every service: who the presented token belongs to, as this service sees
// it (token verified, session not revoked, role from the account). Clients use it to check a token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from './auth-hook';

export const sessionView = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.string() }),
  sessionId: z.string(),
});

export const sessionRoutes =
  (errorSchema: z.ZodType): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/session',
      {
        schema: {
          operationId: 'getCurrentSession',
          summary: 'The caller behind the Bearer token',
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          response: { 200: sessionView, 401: errorSchema },
        },
      },
      async (req) => {
        const auth = callerOf(req);
        return { user: { id: auth.userId, email: auth.email, role: auth.role }, sessionId: auth.sessionId };
      },
    );
  };
