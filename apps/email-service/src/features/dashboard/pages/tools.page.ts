// Tools (spec 001 dashboard tools: story-prompts with library and collections; book-blurb with samples and
// queue): the prompt library and collections, the blurb samples, and the review queue of submitted blurbs,
// where an admin approves one into a sample or rejects it, with a note, in one audited transaction.
import type { FastifyInstance } from 'fastify';
import { AppError } from '@story/http';
import { badge, field, pagination, readOnlyNote, select, table, time } from '../components';
import { actorOf, csrfTokenOf, isAdmin, noticeOf, offsetOf, pageRoute, requireAdmin, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html, queryString } from '../html';
import { BASE, csrfField } from '../layout';
import { RECORD_KINDS, recordsSection } from './records.page';

const QUEUE = `${BASE}/tools/book-blurb/queue`;
const QUEUE_STATUSES = ['pending', 'approved', 'rejected'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function toolsPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { curation } = ctx.services;

  app.get('/tools', pageRoute(ctx, 'dashboardTools', 'Story prompts, collections and book blurbs'), async (request, reply) => {
    const pending = await curation.listQueue({ status: 'pending', limit: 1, offset: 0 });
    const sections = await Promise.all(
      (['story_prompt', 'story_prompt_collection', 'blurb_sample'] as const).map((k) => recordsSection(ctx, request, RECORD_KINDS[k], `${BASE}/tools`, { limit: 10, paged: false })),
    );
    const body = html`<p><a class="button" href="${QUEUE}">Book blurb queue</a> ${pending.pagination.total > 0 ? badge(`${pending.pagination.total} waiting`, 'pending') : badge('nothing waiting', 'active')}</p>
${isAdmin(request) ? '' : readOnlyNote('change these records')}
${sections}`;
    return sendPage(ctx, request, reply, { title: 'Tools', section: '/tools', body, flash: noticeOf(request.query) });
  });

  app.get('/tools/book-blurb/queue', pageRoute(ctx, 'dashboardBlurbQueue', 'Submitted book blurbs waiting for review'), async (request, reply) => {
    const statusRaw = str(request.query, 'status') ?? 'pending';
    const status = (QUEUE_STATUSES as readonly string[]).includes(statusRaw) ? (statusRaw as (typeof QUEUE_STATUSES)[number]) : undefined;
    const offset = offsetOf(request.query);
    const list = await curation.listQueue({ status, limit: 20, offset });
    const admin = isAdmin(request);
    const token = admin ? csrfTokenOf(ctx, request) : '';
    const body = html`${admin ? '' : readOnlyNote('approve or reject blurbs')}
<form method="get" action="${QUEUE}" class="filters">
${select({ label: 'Status', name: 'status', value: status ?? 'all', options: [{ value: 'all', label: 'All' }, ...QUEUE_STATUSES] })}
<button type="submit">Show</button></form>
${table(
  'Queued blurbs, oldest first',
  [
    { label: 'Submitted', cell: (q: Record<string, unknown>) => time(q['created_at'] as string) },
    { label: 'Book', cell: (q) => html`<strong>${String(q['book_title'])}</strong>${q['author'] ? html`<br><small>${String(q['author'])}</small>` : ''}` },
    { label: 'Blurb', cell: (q) => String(q['blurb']) },
    { label: 'Status', cell: (q) => html`${badge(String(q['status']))}${q['review_note'] ? html`<br><small>${String(q['review_note'])}</small>` : ''}` },
    {
      label: 'Review',
      cell: (q) =>
        q['status'] !== 'pending'
          ? time(q['reviewed_at'] as string | null)
          : admin
            ? html`<form method="post" action="${QUEUE}/${String(q['id'])}" class="review">${csrfField(token)}
${field({ label: 'Note', name: 'note', attrs: html` maxlength="2000"` })}
<button type="submit" name="decision" value="approve" class="small">Approve</button> <button type="submit" name="decision" value="reject" class="small danger">Reject</button></form>`
            : 'waiting',
    },
  ],
  list.items,
  'The queue is empty.',
)}
${pagination(QUEUE, { status: status ?? 'all' }, list.pagination)}`;
    return sendPage(ctx, request, reply, { title: 'Book blurb queue', section: '/tools', body, flash: noticeOf(request.query) });
  });

  app.post('/tools/book-blurb/queue/:id', pageRoute(ctx, 'dashboardReviewBlurb', 'Approve a queued blurb into a sample, or reject it (admin)'), async (request, reply) => {
    requireAdmin(request);
    const { id } = request.params as { id: string };
    const decision = str(request.body, 'decision');
    if (decision !== 'approve' && decision !== 'reject') throw new AppError('validation', 'Choose approve or reject', { field: 'decision' });
    const note = (str(request.body, 'note') ?? '').trim();
    if (note.length > 2000) throw new AppError('validation', 'The note is at most 2000 characters', { field: 'note' });
    if (!UUID.test(id)) throw new AppError('not_found', 'Queued blurb not found');
    await curation.reviewBlurb(id, decision, note || null, actorOf(request));
    return reply.redirect(`${QUEUE}${queryString({ saved: decision === 'approve' ? 'approved' : 'rejected' })}`, 303);
  });
}
