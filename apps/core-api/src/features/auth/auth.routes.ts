// /api/auth: signup, signin, refresh and verify-email are public (5 per minute per client); signout and
// resend-verification need a token. The routes that sign in or prove an address refuse a live
// impersonation token sent with them (CONTRACTS §7: impersonation never mints another session).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preHandlerAsyncHookHandler, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { callerOf, refuseImpersonation } from '@story/auth';
import { coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { authResult, magicLinkBody, magicLinkVerifyBody, refreshBody, resendVerificationResult, signinBody, signupBody, verifyEmailBody, verifyEmailResult } from './auth.schemas';
import type { AuthService } from './auth.service';

export interface AuthRoutesDeps {
  auth: AuthService;
  rateLimit: RateLimitHandle;
  requireAuth: onRequestAsyncHookHandler | preHandlerAsyncHookHandler;
  /** A Bearer token is optional, but one that is sent must be valid (verify-email). */
  optionalAuth: onRequestAsyncHookHandler | preHandlerAsyncHookHandler;
  /** libs/auth refuseImpersonationBearer bound to this service's token checks: 403 for a live impersonation token. */
  refuseImpersonationBearer: (what: string) => onRequestAsyncHookHandler;
}

export const authRoutes =
  ({ auth, rateLimit, requireAuth, optionalAuth, refuseImpersonationBearer: noImpersonation }: AuthRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const limited = { rateLimit: rateLimit.route('core.auth') };
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
        onRequest: noImpersonation('Signing in'),
        schema: {
          operationId: 'signin',
          summary: 'Sign in with email and password',
          tags: ['auth'],
          body: signinBody,
          response: { 200: authResult, ...errorResponses(coreErrorSchema, [400, 401, 403, 413, 415, 429] as const) },
        },
      },
      async (req) => auth.signin(req.body, meta(req)),
    );

    app.post(
      '/refresh',
      {
        config: limited,
        onRequest: noImpersonation('Refreshing a session'),
        schema: {
          operationId: 'refreshSession',
          summary: 'Exchange a refresh token for new tokens (the old refresh token stops working)',
          tags: ['auth'],
          body: refreshBody,
          response: { 200: authResult, ...errorResponses(coreErrorSchema, [400, 401, 403, 413, 415, 429] as const) },
        },
      },
      async (req) => auth.refresh(req.body.refresh_token),
    );

    app.post(
      '/verify-email',
      {
        config: limited,
        onRequest: [optionalAuth as onRequestAsyncHookHandler, refuseImpersonation('Verifying an email address')],
        schema: {
          operationId: 'verifyEmail',
          summary: 'Confirm the email address with the token from the verification link',
          description:
            'The token (single use, valid 24 hours) verifies only the account it was sent to. An unknown token answers 400, a used ' +
            'or expired one 410, and a signed-in caller presenting another account\'s token 403; nothing changes then. Issues no ' +
            'new tokens: the role a verified, listed email holds (ADMIN_EMAILS, SUPPORT_EMAILS) is carried by the next refresh or sign-in.',
          tags: ['auth'],
          security: [{}, { bearerAuth: [] }],
          body: verifyEmailBody,
          response: { 200: verifyEmailResult, ...errorResponses(coreErrorSchema, [400, 401, 403, 410, 413, 415, 429] as const) },
        },
      },
      async (req) => auth.verifyEmail(req.body.token, req.auth?.userId),
    );

    app.post(
      '/resend-verification',
      {
        onRequest: requireAuth as onRequestAsyncHookHandler,
        schema: {
          operationId: 'resendVerification',
          summary: 'Send a new verification email to the signed-in account (3 per hour)',
          description:
            'Answers 200 with sent: true when a new link was queued. When the email is already verified it answers 200 with ' +
            'sent: false and sends nothing. More than 3 requests within an hour answer 429 with Retry-After.',
          tags: ['auth'],
          security: [{ bearerAuth: [] }],
          response: { 200: resendVerificationResult, ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await auth.resendVerification(callerOf(req).userId)) }),
    );

    app.post(
      '/magic-link',
      {
        config: { rateLimit: rateLimit.route('core.magic-link.ip') },
        onRequest: noImpersonation('Asking for a sign-in link'),
        schema: {
          operationId: 'requestMagicLink',
          summary: 'Email a sign-in link (single use, valid 15 minutes) to the address',
          description:
            'Answers 200 {success: true} whether or not an account has the address; only an existing account is emailed. ' +
            'At most 5 requests per hour per address asked for (account or not) and 20 per hour per client address: 429 beyond.',
          tags: ['auth'],
          body: magicLinkBody,
          response: { 200: z.object({ success: z.literal(true) }), ...errorResponses(coreErrorSchema, [400, 403, 413, 415, 429] as const) },
        },
      },
      async (req) => {
        await auth.requestMagicLink(req.body.email);
        return { success: true as const };
      },
    );

    app.post(
      '/magic-link/verify',
      {
        config: limited,
        onRequest: noImpersonation('Signing in with a sign-in link'),
        schema: {
          operationId: 'verifyMagicLink',
          summary: 'Sign in with the token from a sign-in link',
          description:
            'Answers {user, session} as signin does, spends the token and marks the email verified (a listed email then holds its ' +
            'role). An unknown token answers 400, a used or expired one 410; no session is made then.',
          tags: ['auth'],
          body: magicLinkVerifyBody,
          response: { 200: authResult, ...errorResponses(coreErrorSchema, [400, 403, 410, 413, 415, 429] as const) },
        },
      },
      async (req) => auth.verifyMagicLink(req.body.token, meta(req)),
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
