// The family timeline (GET /api/family/timeline) and its reactions. Events are written by the features
// where things happen (a member joins, a memory is added) through recordEvent, inside their transaction.
// Who sees an event: the active members of its group; an event without a group (the actor's own) is seen
// by the actor and by everyone who shares an active group with the actor. Reacting needs the
// comment_on_stories permission, which every family role holds.
import { REACTION_TYPES, type Database, type DbOrTx, type ReactionType } from '@story/db';
import { AppError, badRequest, notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import { createTimelineRepository, toIso, type EventRow, type TimelineEventInput } from './timeline.repository';

export { toIso, type TimelineEventInput };

/** Write one event inside the caller's transaction. */
export async function recordEvent(tx: DbOrTx, e: TimelineEventInput): Promise<void> {
  await createTimelineRepository(tx).insertEvent(e);
}

export type ReactionCounts = Record<ReactionType, number>;

export interface TimelineEventView {
  id: string;
  familyGroupId: string | null;
  actor: { id: string | null; name: string | null };
  eventType: string;
  subjectType: string | null;
  subjectId: string | null;
  title: string | null;
  data: Record<string, unknown>;
  occurredAt: string;
  reactions: ReactionCounts;
  myReaction: ReactionType | null;
}

// The cursor keeps PostgreSQL's own text of the timestamp (microseconds), so no event is skipped or repeated.
const encodeCursor = (at: string, id: string) => Buffer.from(`${at}|${id}`).toString('base64url');

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || !/^\d{4}-\d\d-\d\d[ T][\d:.]+([+-]\d\d(:?\d\d)?|Z)?$/.test(at) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw badRequest('Invalid cursor: not a value this API returned', { field: 'cursor' });
  }
  return { at, id };
}

export function createTimelineService({ db, access }: { db: Database; access: Pick<AccessPolicy, 'require' | 'requireGroup'> }) {
  const events = createTimelineRepository(db);
  const toView = (r: EventRow): TimelineEventView => ({
    id: r.id,
    familyGroupId: r.family_group_id,
    actor: { id: r.actor_id, name: r.actor_name },
    eventType: r.event_type,
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    title: r.title,
    data: r.data ?? {},
    occurredAt: toIso(r.occurred_at),
    reactions: { like: r.likes, love: r.loves, celebrate: r.celebrates },
    myReaction: r.mine,
  });

  return {
    async list(callerId: string, q: { familyId?: string; limit: number; cursor?: string }): Promise<{ events: TimelineEventView[]; nextCursor: string | null }> {
      // Asking for one group's timeline is an access check of its own: a non-member gets 404.
      if (q.familyId) await access.requireGroup(callerId, q.familyId, 'view_stories');
      const before = q.cursor ? decodeCursor(q.cursor) : undefined;
      const rows = await events.selectVisible(callerId, { familyGroupId: q.familyId, before, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return { events: page.map(toView), nextCursor: rows.length > q.limit && last ? encodeCursor(last.cursor_at, last.id) : null };
    },

    /** One reaction per person per event: reacting again changes its type. */
    async react(callerId: string, eventId: string, type: ReactionType): Promise<{ eventId: string; type: ReactionType; reactions: ReactionCounts }> {
      if (!(REACTION_TYPES as readonly string[]).includes(type)) throw badRequest(`Invalid type: must be one of ${REACTION_TYPES.join(', ')}`, { field: 'type' });
      const event = await events.findEvent(eventId);
      if (!event) throw notFound('Timeline event');
      // Someone outside the event's group gets the answer of an event that does not exist, not "Family
      // group not found", which would tell them the event id is real (a refusal never tells an existing id
      // from a missing one).
      if (event.family_group_id) {
        await access.requireGroup(callerId, event.family_group_id, 'comment_on_stories').catch((err: unknown) => {
          throw err instanceof AppError && err.kind === 'not_found' ? notFound('Timeline event') : err;
        });
      }
      else if (event.actor_id) await access.require(callerId, event.actor_id, 'comment_on_stories', 'Timeline event');
      else throw notFound('Timeline event');
      await events.upsertReaction(eventId, callerId, type);
      const [row] = await events.selectVisible(callerId, { eventId, limit: 1 });
      return { eventId, type, reactions: row ? toView(row).reactions : { like: 0, love: 0, celebrate: 0 } };
    },

    async unreact(callerId: string, eventId: string): Promise<{ eventId: string; reactions: ReactionCounts }> {
      const [row] = await events.selectVisible(callerId, { eventId, limit: 1 });
      if (!row) throw notFound('Timeline event');
      await events.deleteReaction(eventId, callerId);
      const [after] = await events.selectVisible(callerId, { eventId, limit: 1 });
      return { eventId, reactions: after ? toView(after).reactions : { like: 0, love: 0, celebrate: 0 } };
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
