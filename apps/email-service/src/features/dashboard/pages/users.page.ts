// Users (spec 001 dashboard "users (and impersonate)", CONTRACTS §7): find an account, see its tier, role and
// activity, change tier or role, and act as it for at most 15 minutes with a stated reason. The issued
// token is shown once, on the answer to the POST that made it (never stored, never shown again), with its
// countdown and an end button; every impersonation is listed on the support page with the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_ROLES, SUBSCRIPTION_TIERS, type AccountRole, type SubscriptionTier } from '@story/db';
import { AppError } from '@story/http';
import { auditMeta } from '../../admin/request-meta';
import { badge, field, fmtInt, formErrors, pagination, readOnlyNote, select, table, textarea, time, type FieldErrors } from '../components';
import { csrfTokenOf, isAdmin, noticeOf, offsetOf, pageRoute, requireAdmin, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html, queryString } from '../html';
import { BASE, csrfField } from '../layout';

const PAGE_SIZE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const oneOf = <T extends string>(values: readonly T[], v: string | undefined): T | undefined => (v && (values as readonly string[]).includes(v) ? (v as T) : undefined);

export async function usersPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { users, impersonation, flagStore } = ctx.services;

  app.get('/users', pageRoute(ctx, 'dashboardUsers', 'Find accounts by email or name, role and tier'), async (request, reply) => {
    const q = request.query;
    const search = (str(q, 'search') ?? '').trim().slice(0, 200);
    const role = oneOf(ACCOUNT_ROLES, str(q, 'role'));
    const tier = oneOf(SUBSCRIPTION_TIERS, str(q, 'tier'));
    const offset = offsetOf(q);
    // A page without a total count: counting 100,000 accounts on every view would cost a quarter second.
    const result = await users.page({ search: search || undefined, role, tier, limit: PAGE_SIZE, offset });
    const body = html`<form method="get" action="${BASE}/users" class="filters" role="search">
${field({ label: 'Email or name', name: 'search', type: 'search', value: search })}
${select({ label: 'Role', name: 'role', value: role ?? '', options: [{ value: '', label: 'Any role' }, ...ACCOUNT_ROLES] })}
${select({ label: 'Tier', name: 'tier', value: tier ?? '', options: [{ value: '', label: 'Any tier' }, ...SUBSCRIPTION_TIERS] })}
<button type="submit">Find</button>
</form>
${table(
  'Accounts, newest first',
  [
    { label: 'Email', cell: (u) => html`<a href="${BASE}/users/${u.id}">${u.email}</a>` },
    { label: 'Name', cell: (u) => u.full_name ?? '—' },
    { label: 'Role', cell: (u) => badge(u.role) },
    { label: 'Tier', cell: (u) => u.subscription_tier },
    { label: 'Verified', cell: (u) => (u.email_verified ? 'yes' : 'no') },
    { label: 'Signed up', cell: (u) => time(u.created_at) },
    { label: 'Last sign-in', cell: (u) => time(u.last_sign_in_at) },
  ],
  result.users,
  'No account matches.',
)}
${pagination(`${BASE}/users`, { search, role, tier }, result.pagination)}`;
    return sendPage(ctx, request, reply, { title: 'Users', section: '/users', body });
  });

  async function detailPage(request: FastifyRequest, id: string, extra: { errors?: FieldErrors; message?: string; status?: number; reason?: string } = {}) {
    const user = await users.get(id);
    const flags = await flagStore.evaluateAll(user.id);
    const admin = isAdmin(request);
    const token = csrfTokenOf(ctx, request);
    const a = user.activity;
    const body = html`${formErrors(extra.errors, extra.message)}
<dl class="facts">
<div><dt>Email</dt><dd>${user.email} ${user.email_verified ? badge('verified') : badge('unverified')}</dd></div>
<div><dt>Name</dt><dd>${user.full_name ?? '—'}</dd></div>
<div><dt>Role</dt><dd>${badge(user.role)}</dd></div>
<div><dt>Tier</dt><dd>${user.subscription_tier}${user.subscription_status ? html` (${user.subscription_status})` : ''}</dd></div>
<div><dt>Signed up</dt><dd>${time(user.created_at)}</dd></div>
<div><dt>Last sign-in</dt><dd>${time(user.last_sign_in_at)}</dd></div>
</dl>
<section aria-labelledby="activity"><h2 id="activity">Activity</h2>
<dl class="facts">
<div><dt>Campaigns</dt><dd>${fmtInt(a.campaigns)}</dd></div>
<div><dt>Stories</dt><dd>${fmtInt(a.stories)}</dd></div>
<div><dt>Words</dt><dd>${fmtInt(a.wordCount)}</dd></div>
<div><dt>Recordings</dt><dd>${fmtInt(a.recordings)}</dd></div>
<div><dt>Books</dt><dd>${fmtInt(a.books)}</dd></div>
<div><dt>Conversations</dt><dd>${fmtInt(a.conversations)}</dd></div>
<div><dt>Active sessions</dt><dd>${fmtInt(a.activeSessions)}</dd></div>
</dl></section>
<section aria-labelledby="flags"><h2 id="flags">Feature flags for this account</h2>
${table('Evaluated flags', [{ label: 'Flag', cell: ([k]: [string, boolean | string]) => html`<a href="${BASE}/feature-flags/${k}">${k}</a>` }, { label: 'Value', cell: ([, v]: [string, boolean | string]) => String(v) }], Object.entries(flags), 'No flags defined.')}
</section>
${
  admin
    ? html`<section aria-labelledby="change"><h2 id="change">Change tier or role</h2>
<form method="post" action="${BASE}/users/${user.id}" class="card">
${csrfField(token)}
${select({ label: 'Tier', name: 'subscription_tier', value: user.subscription_tier, options: SUBSCRIPTION_TIERS, errors: extra.errors })}
${select({ label: 'Role', name: 'role', value: user.role, options: ACCOUNT_ROLES, errors: extra.errors, hint: 'Admin and support need a verified email; listed emails (ADMIN_EMAILS, SUPPORT_EMAILS) keep their role.' })}
<button type="submit">Save</button>
</form></section>
${
  user.role === 'user'
    ? html`<section aria-labelledby="impersonate"><h2 id="impersonate">Act as this user</h2>
<p>Opens a session as this account for at most 15 minutes, without a refresh token; it is refused on every admin route and written to the audit log.</p>
<form method="post" action="${BASE}/users/${user.id}/impersonate" class="card">
${csrfField(token)}
${textarea({ label: 'Reason', name: 'reason', value: extra.reason, required: true, rows: 3, errors: extra.errors, hint: 'Required: why you need to act as this user (3 to 500 characters). Kept in the audit log.' })}
<button type="submit">Start impersonation</button>
</form></section>`
    : html`<p>Admin and support accounts cannot be impersonated.</p>`
}`
    : readOnlyNote('change accounts or start an impersonation')
}`;
    return { title: user.email, body, status: extra.status };
  }

  app.get('/users/:id', pageRoute(ctx, 'dashboardUser', 'One account: tier, role, activity, flags; admin controls'), async (request, reply) => {
    const { id } = request.params as { id: string };
    const page = await detailPage(request, id);
    return sendPage(ctx, request, reply, { ...page, section: '/users', flash: noticeOf(request.query) });
  });

  app.post('/users/:id', pageRoute(ctx, 'dashboardUpdateUser', 'Change an account’s tier or role (admin)'), async (request, reply) => {
    const actor = requireAdmin(request);
    const { id } = request.params as { id: string };
    const tierRaw = str(request.body, 'subscription_tier');
    const roleRaw = str(request.body, 'role');
    const errors: FieldErrors = {};
    const tier = oneOf(SUBSCRIPTION_TIERS, tierRaw);
    const role = oneOf(ACCOUNT_ROLES, roleRaw);
    if (tierRaw !== undefined && !tier) errors['subscription_tier'] = `must be one of ${SUBSCRIPTION_TIERS.join(', ')}`;
    if (roleRaw !== undefined && !role) errors['role'] = `must be one of ${ACCOUNT_ROLES.join(', ')}`;
    if (!tier && !role && Object.keys(errors).length === 0) errors['subscription_tier'] = 'choose a tier or a role';
    if (Object.keys(errors).length) return sendPage(ctx, request, reply, { ...(await detailPage(request, id, { errors, status: 400 })), section: '/users' });
    try {
      await users.update(actor.userId, id, { subscription_tier: tier as SubscriptionTier | undefined, role: role as AccountRole | undefined }, auditMeta(request));
    } catch (err) {
      if (err instanceof AppError && err.status < 500 && err.status !== 404) {
        return sendPage(ctx, request, reply, { ...(await detailPage(request, id, { errors: err.field ? { [err.field]: err.message } : {}, message: `Nothing was saved: ${err.message}`, status: err.status })), section: '/users' });
      }
      throw err;
    }
    return reply.redirect(`${BASE}/users/${id}${queryString({ saved: 'user' })}`, 303);
  });

  app.post('/users/:id/impersonate', pageRoute(ctx, 'dashboardImpersonate', 'Start a 15-minute impersonation with a reason (admin)'), async (request, reply) => {
    const actor = requireAdmin(request);
    const { id } = request.params as { id: string };
    const reason = (str(request.body, 'reason') ?? '').trim();
    if (reason.length < 3 || reason.length > 500) {
      const errors = { reason: reason.length < 3 ? 'give the reason (at least 3 characters)' : 'at most 500 characters' };
      return sendPage(ctx, request, reply, { ...(await detailPage(request, id, { errors, status: 400, reason })), section: '/users' });
    }
    let started;
    try {
      started = await impersonation.start(actor.userId, id, reason, auditMeta(request), { oneAtATime: true });
    } catch (err) {
      // A reload of the page that showed the token posts this form again: no second session, a way to end the first.
      if (err instanceof AppError && err.code === 'IMPERSONATION_ACTIVE') {
        const open = err.details as { impersonation_id: string; expires_at: string };
        const body = html`<div class="card warn" role="alert">
<p>${err.message}.</p>
<p>It ends by itself at ${time(open.expires_at)}. <span class="countdown" data-countdown-until="${open.expires_at}" aria-live="polite"></span></p>
<form method="post" action="${BASE}/impersonations/${open.impersonation_id}/end">${csrfField(csrfTokenOf(ctx, request))}<button type="submit" class="danger">End impersonation now</button></form>
</div>
<p><a href="${BASE}/users/${id}">Back to the user</a> · <a href="${BASE}/support">See it in the audit log</a></p>`;
        return sendPage(ctx, request, reply, { title: 'Impersonation already running', section: '/users', status: 409, body });
      }
      if (err instanceof AppError && (err.status === 403 || err.status === 409)) {
        return sendPage(ctx, request, reply, { ...(await detailPage(request, id, { message: `Not started: ${err.message}`, status: err.status, reason })), section: '/users' });
      }
      throw err;
    }
    const imp = started.impersonation;
    const target = (await ctx.repo.accountsByIds([imp.userId])).get(imp.userId);
    const body = html`<div class="card warn">
<p>You are acting as <strong>${target?.email ?? imp.userId}</strong>. Reason: ${imp.reason}</p>
<p>Expires at ${time(imp.expiresAt)}. <span class="countdown" data-countdown-until="${imp.expiresAt}" aria-live="polite"></span></p>
<div class="field"><label for="imp-token">Access token (shown once; send it as <code>Authorization: Bearer …</code>)</label>
<textarea id="imp-token" readonly rows="4" class="mono">${started.session.access_token}</textarea></div>
<p>It works on the user routes of every service until it expires or is ended, never on an admin route, and it has no refresh token.</p>
<form method="post" action="${BASE}/impersonations/${imp.id}/end">${csrfField(csrfTokenOf(ctx, request))}<button type="submit" class="danger">End impersonation now</button></form>
</div>
<p><a href="${BASE}/support">See it in the audit log</a></p>`;
    return sendPage(ctx, request, reply, { title: 'Impersonation started', section: '/users', body });
  });

  app.post('/impersonations/:id/end', pageRoute(ctx, 'dashboardEndImpersonation', 'End an impersonation now (admin)'), async (request, reply) => {
    const actor = requireAdmin(request);
    const { id } = request.params as { id: string };
    if (!UUID.test(id)) throw new AppError('not_found', 'Impersonation not found');
    await impersonation.end(actor.userId, id, auditMeta(request));
    return reply.redirect(`${BASE}/support${queryString({ saved: 'ended' })}`, 303);
  });
}
