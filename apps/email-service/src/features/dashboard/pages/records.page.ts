// The editorial and AI-settings records of spec 001 "Admin resources" (content-kinds.ts, ai-kinds.ts), one
// page per dashboard group: content (content blocks), editor (editor templates), resources (with download
// counts), voice-settings (voices), ai-providers (provider and model per capability). Records with the
// moderation status show it, and an admin moves them one step (draft → reviewed → approved → published, or
// back to draft) through the content service, which checks the step and writes the audit row.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTENT_STATUSES, type ContentStatus } from '@story/db';
import { AppError } from '@story/http';
import { allowedNext } from '../../admin-content/moderation';
import { badge, field, fmtInt, pagination, readOnlyNote, select, table, time, type Column } from '../components';
import { actorOf, csrfTokenOf, isAdmin, noticeOf, offsetOf, pageRoute, requireAdmin, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html, queryString, safeHref, type Html } from '../html';
import { BASE, csrfField } from '../layout';

type Row = Record<string, unknown>;

export interface RecordPageKind {
  kind: string;
  /** Which service holds the kind: editorial records or AI settings. */
  source: 'content' | 'aiRecords';
  title: string;
  moderated: boolean;
  columns: Column<Row>[];
}

const text = (key: string, label: string): Column<Row> => ({ label, cell: (r) => (r[key] === null || r[key] === undefined || r[key] === '' ? '—' : String(r[key])) });
const when = (key: string, label: string): Column<Row> => ({ label, cell: (r) => time(r[key] as string | null) });
const yesNo = (key: string, label: string): Column<Row> => ({ label, cell: (r) => (r[key] ? 'yes' : 'no') });
const clip = (key: string, label: string, max = 140): Column<Row> => ({
  label,
  cell: (r) => {
    const v = String(r[key] ?? '');
    return v.length > max ? `${v.slice(0, max)}…` : v || '—';
  },
});

export const RECORD_KINDS = {
  content_block: { kind: 'content_block', source: 'content', title: 'Content blocks', moderated: true, columns: [text('key', 'Key'), text('title', 'Title'), text('locale', 'Locale'), clip('body', 'Body'), when('published_at', 'Published'), when('updated_at', 'Updated')] },
  editor_template: { kind: 'editor_template', source: 'content', title: 'Editor templates', moderated: true, columns: [text('name', 'Name'), text('category', 'Category'), clip('description', 'Description'), yesNo('is_active', 'Active'), when('updated_at', 'Updated')] },
  resource: {
    kind: 'resource',
    source: 'content',
    title: 'Resources',
    moderated: true,
    columns: [
      text('title', 'Title'),
      text('category', 'Category'),
      { label: 'Link', cell: (r) => { const href = safeHref(r['url'] as string | null); return href ? html`<a href="${href}" rel="noopener noreferrer">${href}</a>` : String(r['storage_key'] ?? '—'); } },
      { label: 'Downloads', numeric: true, cell: (r) => fmtInt(Number(r['download_count'] ?? 0)) },
      when('updated_at', 'Updated'),
    ],
  },
  story_prompt: { kind: 'story_prompt', source: 'content', title: 'Story prompt library', moderated: true, columns: [clip('prompt', 'Prompt', 200), text('category', 'Category'), { label: 'Tags', cell: (r) => ((r['tags'] as string[] | null) ?? []).join(', ') || '—' }, text('relationship_type', 'For'), text('source', 'Source')] },
  story_prompt_collection: { kind: 'story_prompt_collection', source: 'content', title: 'Story prompt collections', moderated: false, columns: [text('title', 'Title'), text('slug', 'Slug'), clip('description', 'Description'), yesNo('is_published', 'Published'), when('updated_at', 'Updated')] },
  blurb_sample: { kind: 'blurb_sample', source: 'content', title: 'Book blurb samples', moderated: true, columns: [text('book_title', 'Book'), text('author', 'Author'), text('genre', 'Genre'), text('style', 'Style'), clip('blurb', 'Blurb', 200)] },
  voice: { kind: 'voice', source: 'aiRecords', title: 'Voices', moderated: false, columns: [text('name', 'Name'), text('provider', 'Provider'), text('voice_id', 'Voice id'), text('language', 'Language'), text('accent', 'Accent'), text('gender', 'Gender'), yesNo('is_active', 'Offered')] },
  ai_provider_config: { kind: 'ai_provider_config', source: 'aiRecords', title: 'Provider configurations', moderated: false, columns: [text('capability', 'Capability'), text('feature', 'Feature (empty: all)'), text('provider', 'Provider'), text('model', 'Model'), text('priority', 'Priority'), yesNo('is_active', 'Active')] },
} satisfies Record<string, RecordPageKind>;

/** A listing of one kind with search, status filter and, for an admin, the next moderation steps of each row. */
export async function recordsSection(ctx: DashboardContext, request: FastifyRequest, kind: RecordPageKind, path: string, options: { limit?: number; paged?: boolean } = {}): Promise<Html> {
  const limit = options.limit ?? 25;
  const search = options.paged === false ? '' : (str(request.query, 'search') ?? '').trim().slice(0, 200);
  const statusRaw = options.paged === false ? undefined : str(request.query, 'status');
  const status = kind.moderated && (CONTENT_STATUSES as readonly string[]).includes(statusRaw ?? '') ? statusRaw : undefined;
  const offset = options.paged === false ? 0 : offsetOf(request.query);
  const result = await ctx.services[kind.source].list(kind.kind, { search: search || undefined, status, limit, offset });
  const admin = isAdmin(request);
  const token = admin ? csrfTokenOf(ctx, request) : '';
  const columns: Column<Row>[] = [...kind.columns];
  if (kind.moderated) {
    columns.push({
      label: 'Status',
      cell: (r) => {
        const current = r['status'] as ContentStatus;
        if (!admin) return badge(current);
        return html`${badge(current)} ${allowedNext(current).map(
          (next) => html`<form method="post" action="${BASE}/records/${kind.kind}/${String(r['id'])}/status" class="inline">${csrfField(token)}<input type="hidden" name="status" value="${next}"><input type="hidden" name="back" value="${path}"><button type="submit" class="small secondary">${next === 'draft' ? 'Back to draft' : `Mark ${next}`}</button></form>`,
        )}`;
      },
    });
  }
  const filters =
    options.paged === false
      ? ''
      : html`<form method="get" action="${path}" class="filters" role="search">
${field({ label: 'Search', name: 'search', type: 'search', value: search })}
${kind.moderated ? select({ label: 'Status', name: 'status', value: status ?? '', options: [{ value: '', label: 'Any status' }, ...CONTENT_STATUSES] }) : ''}
<button type="submit">Find</button></form>`;
  return html`<section aria-labelledby="sec-${kind.kind}"><h2 id="sec-${kind.kind}">${kind.title}</h2>
${filters}
${table(kind.title, columns, result.items, 'None yet.')}
${options.paged === false ? html`<p>${fmtInt(result.pagination.total)} in all.</p>` : pagination(path, { search, status }, result.pagination)}
</section>`;
}

const PAGES: { path: string; operationId: string; title: string; kinds: (keyof typeof RECORD_KINDS)[]; note: string }[] = [
  { path: '/content', operationId: 'dashboardContent', title: 'Content', kinds: ['content_block'], note: 'Texts the apps show by key; only a published block is served to them.' },
  { path: '/editor', operationId: 'dashboardEditor', title: 'Editor', kinds: ['editor_template'], note: 'Templates offered in the story editor.' },
  { path: '/resources', operationId: 'dashboardResources', title: 'Resources', kinds: ['resource'], note: 'Downloads offered to users, with how often each was downloaded.' },
  { path: '/voice-settings', operationId: 'dashboardVoices', title: 'Voice settings', kinds: ['voice'], note: 'Text-to-speech voices offered to users.' },
  { path: '/ai-providers', operationId: 'dashboardAiProviders', title: 'AI providers', kinds: ['ai_provider_config'], note: 'Which provider and model serve each capability and feature; changes reach every service within a second.' },
];

export async function recordPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  for (const p of PAGES) {
    app.get(p.path, pageRoute(ctx, p.operationId, p.title), async (request, reply) => {
      const sections = await Promise.all(p.kinds.map((k) => recordsSection(ctx, request, RECORD_KINDS[k], BASE + p.path)));
      const body = html`<p>${p.note}</p>${isAdmin(request) ? '' : readOnlyNote('change these records')}${sections}`;
      return sendPage(ctx, request, reply, { title: p.title, section: p.path, body, flash: noticeOf(request.query) });
    });
  }

  app.post('/records/:kind/:id/status', pageRoute(ctx, 'dashboardRecordStatus', 'Move a record one moderation step (admin; audit-logged)'), async (request, reply) => {
    requireAdmin(request);
    const { kind, id } = request.params as { kind: string; id: string };
    const def: RecordPageKind | undefined = Object.hasOwn(RECORD_KINDS, kind) ? RECORD_KINDS[kind as keyof typeof RECORD_KINDS] : undefined;
    if (!def || !def.moderated) throw new AppError('not_found', 'No such kind of record');
    const status = str(request.body, 'status');
    if (!status || !(CONTENT_STATUSES as readonly string[]).includes(status)) throw new AppError('validation', `status must be one of ${CONTENT_STATUSES.join(', ')}`, { field: 'status' });
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError('not_found', 'Record not found');
    await ctx.services[def.source].setStatus(kind, id, status as ContentStatus, actorOf(request));
    const back = str(request.body, 'back');
    const target = back && back.startsWith(`${BASE}/`) && !back.startsWith('//') && !/[\r\n\\]/.test(back) ? back : BASE;
    return reply.redirect(`${target}${queryString({ saved: 'status' })}`, 303);
  });
}
