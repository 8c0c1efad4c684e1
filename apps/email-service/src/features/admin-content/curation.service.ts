// The two editorial workflows beyond plain records: which prompts a story-prompt collection holds (in
// order), and the book-blurb queue, where a submitted blurb is approved into a sample or rejected.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { blurbQueue, blurbSamples, one, storyPromptCollectionItems, storyPromptCollections, storyPromptLibrary, type Database, type DbOrTx } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import type { AuditLog } from '../admin/audit-log.repository';
import { rowView } from '../admin/admin-views';
import type { Actor } from './content.service';

type Page = { limit: number; offset: number };

export function createCurationService({ db, audit }: { db: Database; audit: AuditLog }) {
  async function collectionPrompts(id: string, tx: DbOrTx = db) {
    const rows = await tx
      .select({ prompt: storyPromptLibrary, position: storyPromptCollectionItems.position })
      .from(storyPromptCollectionItems)
      .innerJoin(storyPromptLibrary, eq(storyPromptLibrary.id, storyPromptCollectionItems.promptId))
      .where(eq(storyPromptCollectionItems.collectionId, id))
      .orderBy(asc(storyPromptCollectionItems.position));
    return rows.map((r) => ({ ...rowView(r.prompt), position: r.position }));
  }

  return {
    async getCollection(id: string) {
      const [collection] = await db.select().from(storyPromptCollections).where(eq(storyPromptCollections.id, id));
      if (!collection) throw notFound('Story prompt collection');
      return { collection: rowView(collection), prompts: await collectionPrompts(id) };
    },

    /** Replaces the collection's prompts with `promptIds`, in that order; an unknown id refuses the whole change. */
    async setCollectionPrompts(id: string, promptIds: string[], actor: Actor) {
      if (new Set(promptIds).size !== promptIds.length) throw badRequest('prompt_ids lists a prompt twice', { field: 'prompt_ids' });
      return db.transaction(async (tx) => {
        const [collection] = await tx.select().from(storyPromptCollections).where(eq(storyPromptCollections.id, id)).for('update');
        if (!collection) throw notFound('Story prompt collection');
        const found = promptIds.length ? await tx.select({ id: storyPromptLibrary.id }).from(storyPromptLibrary).where(inArray(storyPromptLibrary.id, promptIds)) : [];
        const missing = promptIds.filter((p) => !found.some((f) => f.id === p));
        if (missing.length) throw badRequest(`prompt_ids names prompts that do not exist: ${missing.join(', ')}`, { field: 'prompt_ids', details: { unknown_prompt_ids: missing } });
        const before = (await collectionPrompts(id, tx)).map((p) => (p as Record<string, unknown>)['id']);
        await tx.delete(storyPromptCollectionItems).where(eq(storyPromptCollectionItems.collectionId, id));
        if (promptIds.length) await tx.insert(storyPromptCollectionItems).values(promptIds.map((promptId, position) => ({ collectionId: id, promptId, position })));
        await audit.record({ ...actor, action: 'story_prompt_collection.set_prompts', targetType: 'story_prompt_collection', targetId: id, before: { prompt_ids: before }, after: { prompt_ids: promptIds } }, tx);
        return { collection: rowView(collection), prompts: await collectionPrompts(id, tx) };
      });
    },

    async listQueue(filter: Page & { status?: 'pending' | 'approved' | 'rejected' }) {
      const where = filter.status ? eq(blurbQueue.status, filter.status) : undefined;
      const rows = await db.select().from(blurbQueue).where(where).orderBy(asc(blurbQueue.createdAt)).limit(filter.limit).offset(filter.offset);
      const total = await db.$count(blurbQueue, where);
      return { items: rows.map(rowView), pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + rows.length < total } };
    },

    async submitBlurb(input: { book_title: string; author?: string | null; genre?: string | null; blurb: string; source_content_id?: string | null }, actor: Actor) {
      return db.transaction(async (tx) => {
        const row = one(await tx
          .insert(blurbQueue)
          .values({ bookTitle: input.book_title, author: input.author ?? null, genre: input.genre ?? null, blurb: input.blurb, sourceContentId: input.source_content_id ?? null, submittedBy: actor.actorId })
          .returning());
        await audit.record({ ...actor, action: 'blurb_queue.submit', targetType: 'blurb_queue', targetId: row.id, before: null, after: rowView(row) }, tx);
        return rowView(row);
      });
    },

    /** pending -> approved (a blurb sample is made from it, status approved) or pending -> rejected; anything else is 409. */
    async reviewBlurb(id: string, decision: 'approve' | 'reject', note: string | null | undefined, actor: Actor) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(blurbQueue).where(eq(blurbQueue.id, id)).for('update');
        if (!before) throw notFound('Queued blurb');
        if (before.status !== 'pending') throw conflict(`This blurb was already ${before.status}`, { code: 'INVALID_TRANSITION', details: { field: 'status', from: before.status } });
        let sample = null;
        if (decision === 'approve') {
          [sample] = await tx
            .insert(blurbSamples)
            .values({ bookTitle: before.bookTitle, author: before.author, genre: before.genre, blurb: before.blurb, status: 'approved', createdBy: actor.actorId })
            .returning();
        }
        const after = one(await tx
          .update(blurbQueue)
          .set({ status: decision === 'approve' ? 'approved' : 'rejected', reviewedBy: actor.actorId, reviewedAt: new Date(), reviewNote: note ?? null, sampleId: sample?.id ?? null, updatedAt: new Date() })
          .where(and(eq(blurbQueue.id, id), eq(blurbQueue.status, 'pending')))
          .returning());
        await audit.record({ ...actor, action: `blurb_queue.${decision}`, targetType: 'blurb_queue', targetId: id, before: rowView(before), after: rowView(after) }, tx);
        return { item: rowView(after), sample: sample ? rowView(sample) : null };
      });
    },
  };
}

export type CurationService = ReturnType<typeof createCurationService>;
