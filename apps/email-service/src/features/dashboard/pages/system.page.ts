// System and settings (spec 001 dashboard system (database, feature-flags), settings): the database server,
// its largest tables and the migrations shipped vs recorded, with the admin's two operations of spec 001's
// admin API (apply migrations, clear the caches of every service), each audit-logged; and the signed-in
// account's own session.
import type { FastifyInstance } from 'fastify';
import { applyPendingMigrations } from '@story/db';
import { auditMeta } from '../../admin/request-meta';
import { badge, fmtInt, readOnlyNote, table, time } from '../components';
import { csrfTokenOf, isAdmin, noticeOf, pageRoute, requireAdmin, sendPage, userOf, type DashboardContext } from '../dashboard.context';
import { html, queryString } from '../html';
import { BASE, csrfField } from '../layout';

export async function systemPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  app.get('/system', pageRoute(ctx, 'dashboardSystem', 'Database, migrations and caches'), async (request, reply) => {
    const [facts, flags] = await Promise.all([ctx.repo.systemFacts(), ctx.services.flags.list()]);
    const admin = isAdmin(request);
    const token = admin ? csrfTokenOf(ctx, request) : '';
    const m = facts.migrations;
    const body = html`<section aria-labelledby="db"><h2 id="db">Database</h2>
<dl class="facts"><div><dt>PostgreSQL</dt><dd>${facts.version ?? '—'}</dd></div><div><dt>Size</dt><dd>${facts.size ?? '—'}</dd></div><div><dt>Server started</dt><dd>${time(facts.startedAt)}</dd></div></dl>
${table('Largest tables (row counts are the planner’s estimates)', [{ label: 'Table', cell: (t: (typeof facts.tables)[number]) => html`<code>${t.name}</code>` }, { label: 'Rows (estimate)', numeric: true, cell: (t) => fmtInt(t.rows) }, { label: 'Size', numeric: true, cell: (t) => t.size }], facts.tables)}
<h3>Migrations</h3>
<p>${fmtInt(m.applied)} recorded in the database, ${fmtInt(m.shipped)} shipped with this version. ${m.pending.length ? badge(`${m.pending.length} pending`, 'pending') : badge('up to date', 'active')}</p>
${m.pending.length ? html`<ul>${m.pending.map((p) => html`<li><code>${p}</code></li>`)}</ul>` : ''}
${admin ? html`<form method="post" action="${BASE}/system/apply-migrations" class="inline">${csrfField(token)}<button type="submit" data-confirm="Apply every pending migration now?">Apply pending migrations</button></form>` : readOnlyNote('apply migrations')}
</section>
<section aria-labelledby="flags"><h2 id="flags">Feature flags and caches</h2>
<p>${fmtInt(flags.length)} flags (<a href="${BASE}/feature-flags">manage</a>). Every service caches flags, prompts and provider choices for at most 300 seconds and drops them within a second of a change.</p>
${admin ? html`<form method="post" action="${BASE}/system/clear-cache" class="inline">${csrfField(token)}<button type="submit">Clear caches in every service</button></form>` : readOnlyNote('clear caches')}
</section>`;
    return sendPage(ctx, request, reply, { title: 'System', section: '/system', body, flash: noticeOf(request.query) });
  });

  app.post('/system/apply-migrations', pageRoute(ctx, 'dashboardApplyMigrations', 'Apply pending database migrations (admin; audit-logged)'), async (request, reply) => {
    const actor = requireAdmin(request);
    const report = await applyPendingMigrations(ctx.database.sql, ctx.migrationsFolder);
    // The migration commits on its own (as in POST /api/apply-migration); the audit row records who ran it.
    await ctx.services.audit.record({ actorId: actor.userId, action: 'database.apply_migration', targetType: 'database', requestId: request.id, ipPrefix: auditMeta(request).ipPrefix, before: null, after: report });
    return reply.redirect(`${BASE}/system${queryString({ saved: 'migrations' })}`, 303);
  });

  app.post('/system/clear-cache', pageRoute(ctx, 'dashboardClearCache', 'Clear the caches of every service (admin; audit-logged)'), async (request, reply) => {
    const actor = requireAdmin(request);
    const meta = auditMeta(request);
    await ctx.services.audit.record({ actorId: actor.userId, action: 'cache.clear', targetType: 'cache', targetId: 'all', ipPrefix: meta.ipPrefix, requestId: meta.requestId });
    await ctx.cacheBus.publish();
    return reply.redirect(`${BASE}/system${queryString({ saved: 'cache' })}`, 303);
  });

  app.get('/settings', pageRoute(ctx, 'dashboardSettings', 'The signed-in account and its session'), async (request, reply) => {
    const user = userOf(request);
    const expires = new Date(user.expiresAt * 1000).toISOString();
    const c = ctx.config;
    const body = html`<section aria-labelledby="you"><h2 id="you">Your session</h2>
<dl class="facts"><div><dt>Account</dt><dd><a href="${BASE}/users/${user.userId}">${user.email}</a></dd></div><div><dt>Role</dt><dd>${badge(user.role)}</dd></div>
<div><dt>Session ends</dt><dd>${time(expires)} <span class="countdown" data-countdown-until="${expires}"></span></dd></div></dl>
<p>The session lasts 24 hours. Signing out here, or signing out of this session anywhere else, ends it in every service.</p>
<form method="post" action="${BASE}/sign-out">${csrfField(csrfTokenOf(ctx, request))}<button type="submit">Sign out</button></form></section>
<section aria-labelledby="config"><h2 id="config">This service</h2>
<dl class="facts"><div><dt>Mode</dt><dd>${c.nodeEnv}</dd></div><div><dt>Admin emails listed</dt><dd>${fmtInt(c.adminEmails.length)}</dd></div><div><dt>Support emails listed</dt><dd>${fmtInt(c.supportEmails.length)}</dd></div>
<div><dt>Queue batch</dt><dd>${fmtInt(c.queue.batchSize)} emails, ${fmtInt(c.queue.maxAttempts)} attempts, every ${fmtInt(c.queue.intervalMs / 1000)} s</dd></div></dl>
<p>Roles come from ADMIN_EMAILS and SUPPORT_EMAILS (verified emails only) or are granted on a user’s page.</p></section>`;
    return sendPage(ctx, request, reply, { title: 'Settings', section: '/settings', body });
  });
}
