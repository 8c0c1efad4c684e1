// /api/auth/oauth (CONTRACTS §10): start and callback answer 302; exchange answers {user, session}.
// Public routes, limited per address (core.oauth). Apple posts its callback (form_post): that route alone
// reads application/x-www-form-urlencoded, parsed with URLSearchParams.
import { randomBytes } from 'node:crypto';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { coreErrorSchema, errorResponses, routeMedia, type RateLimitHandle } from '@story/http';
import { authResult } from '../auth/auth.schemas';
import type { OAuthService } from './oauth.service';

export interface OAuthRoutesDeps {
  oauth: OAuthService;
  rateLimit: RateLimitHandle;
  /** PUBLIC_API_URL is https: the binding cookie is Secure and SameSite=None (Apple's cross-site form POST carries it). */
  secureCookie: boolean;
  /** libs/auth refuseImpersonationBearer bound to the service's token checks (exchange refuses an impersonation token). */
  refuseImpersonationBearer?: (what: string) => onRequestAsyncHookHandler;
}

/** A 302 has no body; Location says where to go (CONTRACTS §10). */
const redirectMedia = routeMedia({
  answers: { 302: null },
  headers: { 302: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } } },
});

/** The browser binding: a random value in a cookie set by /start; the callback must carry the same. */
export const BINDING_COOKIE = 'story_oauth_browser';
const BINDING_MAX_AGE = 600;
const BINDING_VALUE = /^[A-Za-z0-9_-]{43}$/;

function bindingOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== BINDING_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (BINDING_VALUE.test(value)) return value;
  }
  return undefined;
}

const FORM_BODY_LIMIT = 16 * 1024;

const providerParams = z.object({ provider: z.string().min(1).max(64).describe('google, facebook or apple') });

/** An application path: starts with one slash (never `//` or `/\`, which browsers read as another host). */
const appPath = z
  .string()
  .max(512)
  .regex(/^\/(?![/\\])[^\s\\]*$/, { message: 'must be a path of the application, starting with a single /' });

const callbackFields = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
  user: z.string().max(4096).optional(),
  iss: z.string().max(512).optional(),
  scope: z.string().max(1024).optional(),
  authuser: z.string().max(64).optional(),
  prompt: z.string().max(256).optional(),
  hd: z.string().max(256).optional(),
});

const redirect = z.null().describe('Redirect (Location header)');

export const oauthRoutes =
  ({ oauth, rateLimit, secureCookie, refuseImpersonationBearer }: OAuthRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const limited = { rateLimit: rateLimit.route('core.oauth') };
    const cookieAttributes = `Path=/api/auth/oauth; Max-Age=${BINDING_MAX_AGE}; HttpOnly; ${secureCookie ? 'Secure; SameSite=None' : 'SameSite=Lax'}`;

    app.get(
      '/:provider/start',
      {
        config: limited,
        schema: {
          operationId: 'oauthStart',
          summary: 'Start social sign-in: a redirect to the provider (Google, Facebook or Apple)',
          description:
            'Answers 302 to the provider with a fresh state, PKCE (S256) and, for Google and Apple, a nonce, and sets the ' +
            'story_oauth_browser cookie the callback must carry (the sign-in ends in the browser that started it). redirect_to is the ' +
            'application path to return to after sign-in. An unknown or unconfigured provider answers 404.',
          tags: ['auth'],
          params: providerParams,
          querystring: z.object({ redirect_to: appPath.optional() }),
          ...redirectMedia,
          response: { 302: redirect, ...errorResponses(coreErrorSchema, [400, 404, 429, 502] as const) },
        },
      },
      async (req, reply) => {
        // One binding per browser, kept across starts, so two tabs can each sign in.
        const binding = bindingOf(req.headers.cookie) ?? randomBytes(32).toString('base64url');
        const location = await oauth.start(req.params.provider, req.query.redirect_to, binding);
        return reply.header('set-cookie', `${BINDING_COOKIE}=${binding}; ${cookieAttributes}`).redirect(location, 302);
      },
    );

    const callbackRoutes: FastifyPluginAsyncZod = async (callbackScope) => {
      callbackScope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
        const fields: Record<string, string> = {};
        for (const [key, value] of new URLSearchParams(body as string)) fields[key] = value;
        done(null, fields);
      });
      const schema = (method: 'GET' | 'POST') => ({
        operationId: method === 'GET' ? 'oauthCallback' : 'oauthCallbackPost',
        summary: method === 'GET' ? "The provider's redirect back (Google, Facebook)" : "The provider's form_post back (Apple)",
        description:
          'Checks the state (single use), exchanges the code, verifies the ID token (Google, Apple) or reads the profile (Facebook), ' +
          'then signs in the linked account, links a verified email to its account, or creates an account. Answers 302 to ' +
          '${APP_URL}/auth/callback?code=<one-time code>; a missing, unknown, used or expired state, or one started in another ' +
          'browser (no or another story_oauth_browser cookie), answers 400, a sign-in that ' +
          'cannot be verified 401, an unverified email of an existing account 409.',
        tags: ['auth'],
        params: providerParams,
        ...redirectMedia,
        ...(method === 'POST' ? { consumes: ['application/x-www-form-urlencoded', 'application/json'] } : {}),
        response: { 302: redirect, ...errorResponses(coreErrorSchema, [400, 401, 404, 409, 413, 415, 429, 502] as const) },
      });
      callbackScope.get(
        '/:provider/callback',
        { config: limited, schema: { ...schema('GET'), querystring: callbackFields } },
        async (req, reply) => reply.redirect(await oauth.callback(req.params.provider, req.query, bindingOf(req.headers.cookie)), 302),
      );
      callbackScope.post(
        '/:provider/callback',
        { config: limited, schema: { ...schema('POST'), body: callbackFields } },
        async (req, reply) => reply.redirect(await oauth.callback(req.params.provider, req.body, bindingOf(req.headers.cookie)), 302),
      );
    };
    await app.register(callbackRoutes);

    app.post(
      '/exchange',
      {
        config: limited,
        // CONTRACTS §7: an impersonation token never mints another session.
        ...(refuseImpersonationBearer ? { onRequest: refuseImpersonationBearer('Completing a social sign-in') } : {}),
        schema: {
          operationId: 'oauthExchange',
          summary: 'Exchange the one-time code of a social sign-in for a session',
          description: 'The code (single use, valid 2 minutes) answers {user, session} as signin. An unknown code answers 400, a used or expired one 410.',
          tags: ['auth'],
          body: z.object({ code: z.string().max(256).regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be the code from the sign-in redirect' }) }),
          response: { 200: authResult, ...errorResponses(coreErrorSchema, [400, 403, 410, 413, 415, 429] as const) },
        },
      },
      async (req) =>
        oauth.exchange(req.body.code, { userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined, ip: req.ip }),
    );
  };
