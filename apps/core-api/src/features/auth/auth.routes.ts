// /api/auth: signup, signin and refresh are public (5 per minute per client); signout needs a token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preHandlerAsyncHookHandler, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, ipKey, type RateLimitHandle } from '@story/http';
import { authResult, refreshBody, signinBody, signupBody } from './auth.schemas';
import type { AuthService } from './auth.service';

export interface AuthRoutesDeps {
  auth: AuthService;
  rateLimit: RateLimitHandle;
  perMinute: number;
  requireAuth: onRequestAsyncHookHandler | preHandlerAsyncHookHandler;
}

export const authRoutes =
  ({ auth, rateLimit, perMinute, requireAuth }: AuthRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const limited = { rateLimit: rateLimit.limit(perMinute, '1 minute', ipKey) };
    const meta = (req: { headers: Record<string, unknown>; ip: string }) => ({
      userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
      ip: req.ip,
    });

    app.post(
      '/signup',
      {
        config: limited,
        schema: {
          operationId: 'signup',
          summary: 'Create an account (with its profile and settings) and sign in',
          tags: ['auth'],
          body: signupBody,
          response: { 201: authResult, ...errorResponses(coreErrorSchema, [400, 409, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send(await auth.signup(req.body, meta(req))),
    );

    app.post(
      '/signin',
      {
        config: limited,
        schema: {
          operationId: 'signin',
          summary: 'Sign in with email and password',
          tags: ['auth'],
          body: signinBody,
          response: { 200: authResult, ...errorResponses(coreErrorSchema, [400, 401, 413, 415, 429] as const) },
        },
      },
      async (req) => auth.signin(req.body, meta(req)),
    );

    app.post(
      '/refresh',
      {
        config: limited,
        schema: {
          operationId: 'refreshSession',
          summary: 'Exchange a refresh token for new tokens (the old refresh token stops working)',
          tags: ['auth'],
          body: refreshBody,
          response: { 200: authResult, ...errorResponses(coreErrorSchema, [400, 401, 413, 415, 429] as const) },
        },
      },
      async (req) => auth.refresh(req.body.refresh_token),
    );

    app.post(
      '/signout',
      {
        onRequest: requireAuth as onRequestAsyncHookHandler,
        schema: {
          operationId: 'signout',
          summary: "End this session: its access and refresh tokens are refused from now on",
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          response: { 200: z.object({ success: z.literal(true) }), ...errorResponses(coreErrorSchema, [401] as const) },
        },
      },
      async (req) => {
        await auth.signout(callerOf(req).sessionId);
        return { success: true as const };
      },
    );
  };
