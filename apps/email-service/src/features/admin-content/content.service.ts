// Editorial records of the admin application: list, read, create, update, delete and moderate any kind of
// content-kinds.ts. Every change and its audit row (before, after) share one transaction, so a refused
// change leaves neither. Status moves only through `setStatus`, which enforces the moderation steps.
import { isUniqueViolation } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import type { AuditLog } from '../admin/audit-log.repository';
import { columnsOf, rowView } from '../admin/admin-views';
import type { RecordKinds } from './content-kinds';
import type { ContentRepository, ListFilter } from './content.repository';
import { assertTransition, type ContentStatus } from './moderation';

export interface Actor {
  actorId: string;
  requestId?: string;
}

const label = (kind: string) => kind.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export function createContentService({ repo, audit, kinds, afterChange }: { repo: ContentRepository; audit: AuditLog; kinds: RecordKinds; afterChange?: () => void }) {
  const def = (kind: string) => kinds[kind]!;
  const tableOf = (kind: string) => def(kind).table;
  /** created_by / updated_by where the table keeps them. */
  const stamps = (kind: string, actorId: string, creating: boolean) => ({
    ...(creating && repo.hasColumn(tableOf(kind), 'createdBy') ? { createdBy: actorId } : {}),
    ...(repo.hasColumn(tableOf(kind), 'updatedBy') ? { updatedBy: actorId } : {}),
  });
  const checkShape = (kind: string, merged: Record<string, unknown>) => def(kind).validate?.(merged);

  function uniqueClash(kind: string, err: unknown): never {
    if (isUniqueViolation(err)) {
      const field = def(kind).unique ?? 'id';
      throw conflict(`${label(kind)} with this ${field} already exists`, { details: { field } });
    }
    throw err;
  }

  async function change(kind: string, action: string, actor: Actor, targetId: string, fn: (tx: Parameters<Parameters<ContentRepository['transaction']>[0]>[0]) => Promise<{ before: object | null; after: object | null }>) {
    const after = await repo.transaction(async (tx) => {
      const { before, after } = await fn(tx);
      await audit.record(
        { ...actor, action: `${kind}.${action}`, targetType: kind, targetId, before: before && rowView(before), after: after && rowView(after) },
        tx,
      );
      return after;
    });
    afterChange?.();
    return after;
  }

  return {
    async list(kind: string, filter: ListFilter) {
      const { rows, total } = await repo.list(tableOf(kind), def(kind).search, filter);
      return { items: rows.map(rowView), pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + rows.length < total } };
    },

    async get(kind: string, id: string) {
      const row = await repo.get(tableOf(kind), id);
      if (!row) throw notFound(label(kind));
      return rowView(row);
    },

    async create(kind: string, body: Record<string, unknown>, actor: Actor) {
      const values = { ...columnsOf(body), ...stamps(kind, actor.actorId, true) };
      checkShape(kind, values);
      try {
        const after = await repo.transaction(async (tx) => {
          const row = await repo.insert(tableOf(kind), values, tx);
          await audit.record({ ...actor, action: `${kind}.create`, targetType: kind, targetId: row.id, before: null, after: rowView(row) }, tx);
          return row;
        });
        afterChange?.();
        return rowView(after);
      } catch (err) {
        uniqueClash(kind, err);
      }
    },

    async update(kind: string, id: string, body: Record<string, unknown>, actor: Actor) {
      const values = columnsOf(body);
      if (!Object.keys(values).length) throw badRequest('Nothing to update: send at least one field', { details: { missing_fields: Object.keys(def(kind).create.shape) } });
      try {
        const after = await change(kind, 'update', actor, id, async (tx) => {
          const before = await repo.get(tableOf(kind), id, tx, true);
          if (!before) throw notFound(label(kind));
          checkShape(kind, { ...before, ...values });
          return { before, after: (await repo.update(tableOf(kind), id, { ...values, ...stamps(kind, actor.actorId, false) }, tx))! };
        });
        return rowView(after!);
      } catch (err) {
        uniqueClash(kind, err);
      }
    },

    async remove(kind: string, id: string, actor: Actor) {
      await change(kind, 'delete', actor, id, async (tx) => {
        const before = await repo.remove(tableOf(kind), id, tx);
        if (!before) throw notFound(label(kind));
        return { before, after: null };
      });
    },

    /** One moderation step (moderation.ts); publishing a content block stamps published_at. */
    async setStatus(kind: string, id: string, status: ContentStatus, actor: Actor) {
      if (!def(kind).moderated) throw badRequest(`${label(kind)} has no moderation status`, { field: 'status' });
      const after = await change(kind, 'status', actor, id, async (tx) => {
        const before = await repo.get(tableOf(kind), id, tx, true);
        if (!before) throw notFound(label(kind));
        assertTransition(before['status'] as ContentStatus, status);
        const stamp = kind === 'content_block' ? { publishedAt: status === 'published' ? new Date() : null } : {};
        return { before, after: (await repo.update(tableOf(kind), id, { status, ...stamp }, tx))! };
      });
      return rowView(after!);
    },

    /** What the app shows: only a published block, and only its public fields. */
    async publishedBlock(key: string) {
      const row = await repo.publishedBlock(key);
      if (!row) throw notFound('Content block');
      return { key: row.key, title: row.title, body: row.body, locale: row.locale, metadata: row.metadata, published_at: row.publishedAt?.toISOString() ?? null };
    },

    async incrementDownload(id: string) {
      const row = await repo.incrementDownload(id);
      if (!row) throw notFound('Resource');
      return { id: row.id, download_count: row.downloadCount, url: row.url, storage_key: row.storageKey };
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
