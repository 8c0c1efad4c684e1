// Sign-in, sign-out and the error page of the admin application (CONTRACTS §12). The sign-in form carries a
// CSRF token bound to a nonce cookie (no session exists yet); a good password of an account without role
// admin or support is refused without opening a session; a wrong one counts toward core-api's lockout.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NormalizedError } from '@story/http';
import { AppError } from '@story/http';
import { field, formErrors } from '../components';
import { CSRF_FIELD, newNonce } from '../csrf';
import { pageRoute, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html } from '../html';
import { BASE, page } from '../layout';
import type { NoUser } from '../session';

const PROBLEM_TEXT: Record<NoUser, string | null> = {
  none: null,
  ended: 'Your session has ended (it expired, was signed out or was revoked). Sign in again.',
  no_role: 'This account no longer holds role admin or support.',
};

/** Only a path inside the admin application is a place to return to after signing in. */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith(BASE) || next.startsWith('//') || /[\r\n\\]/.test(next)) return BASE;
  const rest = next.slice(BASE.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? next : BASE;
}

export interface SignInPageOptions {
  status?: number;
  problem?: NoUser;
  message?: string;
  email?: string;
  next?: string;
}

/** The sign-in form, with a fresh nonce cookie when the browser has none (its CSRF binding). */
export function signInPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, options: SignInPageOptions = {}) {
  let nonce = ctx.sessions.signinNonce(request);
  if (!nonce) {
    nonce = newNonce();
    ctx.sessions.setSigninNonce(reply, nonce);
  }
  const token = ctx.csrf.tokenFor(`signin:${nonce}`);
  const problem = options.message ?? (options.problem ? PROBLEM_TEXT[options.problem] : null);
  const body = html`<p>For accounts with role admin or support. Use the email and password of your Family Stories account.</p>
${problem ? formErrors({}, problem) : ''}
<form method="post" action="${BASE}/sign-in" class="card narrow">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<input type="hidden" name="next" value="${safeNext(options.next)}">
${field({ label: 'Email', name: 'email', type: 'email', value: options.email, required: true, attrs: html` autocomplete="username" autofocus` })}
${field({ label: 'Password', name: 'password', type: 'password', required: true, attrs: html` autocomplete="current-password"` })}
<button type="submit">Sign in</button>
</form>`;
  return reply
    .status(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page({ title: 'Sign in', user: null, csrfToken: token, assets: ctx.assets, body }));
}

/** Any refused or failed request, as a page: what happened, and that nothing was changed by a refusal. */
export function errorPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, error: Pick<NormalizedError, 'status' | 'message' | 'fields' | 'kind'>) {
  if (!request.dashboardUser && (error.status === 401 || request.url.startsWith(`${BASE}/sign-in`))) {
    return signInPage(ctx, request, reply, { status: error.status, message: error.status >= 500 ? 'Something went wrong on our side. Please try again.' : error.message });
  }
  const title = error.status === 404 ? 'Not found' : error.status === 403 ? 'Not allowed' : error.status === 429 ? 'Too many requests' : error.status >= 500 ? 'Something went wrong' : 'Request refused';
  const message = error.status >= 500 ? 'Something went wrong on our side; nothing was changed. Please try again.' : error.message;
  const fields = error.fields?.length ? html`<ul>${error.fields.map((f) => html`<li>${f.field}: ${f.message}</li>`)}</ul>` : '';
  if (!request.dashboardUser) {
    return reply.status(error.status).type('text/html; charset=utf-8').send(page({ title, user: null, csrfToken: '', assets: ctx.assets, body: html`<p role="alert">${message}</p>${fields}<p><a href="${BASE}">Go to the sign-in page</a></p>` }));
  }
  return sendPage(ctx, request, reply, { title, status: error.status, body: html`<p role="alert" class="flash flash-error">${message}</p>${fields}<p><a href="${BASE}">Back to the overview</a></p>` });
}

export async function signInRoutes(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const publicRoute = (operationId: string, summary: string, limit: 'email.admin' | 'core.auth') => {
    const base = pageRoute(ctx, operationId, summary);
    return { ...base, config: { rateLimit: ctx.rateLimit.route(limit), dashboardPublic: true } };
  };

  app.get('/sign-in', publicRoute('dashboardSignInPage', 'Admin application sign-in page', 'email.admin'), async (request, reply) => {
    const resolved = await ctx.sessions.resolve(request);
    if (typeof resolved !== 'string') return reply.redirect(safeNext(str(request.query, 'next')), 303);
    // Why the browser was sent here (a fixed set: the query never puts text on the page).
    const reason = str(request.query, 'reason');
    const problem = reason === 'ended' || reason === 'no_role' ? reason : undefined;
    return signInPage(ctx, request, reply, { next: str(request.query, 'next'), problem });
  });

  // The same per-client limit as core-api's sign-in; the lockout per email is the shared one.
  app.post('/sign-in', publicRoute('dashboardSignIn', 'Sign in to the admin application (role admin or support)', 'core.auth'), async (request, reply) => {
    const email = (str(request.body, 'email') ?? '').trim().toLowerCase();
    const password = str(request.body, 'password') ?? '';
    const next = str(request.body, 'next');
    if (!email || !password || email.length > 254 || password.length > 256) {
      return signInPage(ctx, request, reply, { status: 400, message: 'Enter your email and password.', email, next });
    }
    try {
      const { token } = await ctx.sessions.signIn(email, password, { ip: request.ip, userAgent: request.headers['user-agent'] });
      ctx.sessions.setSession(reply, token);
      return reply.redirect(safeNext(next), 303);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
      const message = err.kind === 'unauthorized' ? 'Invalid email or password.' : err.message;
      return signInPage(ctx, request, reply, { status: err.status, message, email, next });
    }
  });

  app.post('/sign-out', pageRoute(ctx, 'dashboardSignOut', 'Sign out of the admin application (the session is revoked everywhere)'), async (request, reply) => {
    const user = request.dashboardUser;
    if (user) await ctx.sessions.signOut(user.sessionId);
    ctx.sessions.clearSession(reply);
    return reply.redirect(`${BASE}/sign-in`, 303);
  });
}
