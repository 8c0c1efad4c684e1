// The family timeline (GET /api/family/timeline) and its reactions. Events are written by the features
// where things happen (a member joins, a memory is added) through recordEvent, inside their transaction.
// Who sees an event: the active members of its group; an event without a group (the actor's own) is seen
// by the actor and by everyone who shares an active group with the actor. Reacting needs the
// comment_on_stories permission, which every family role holds.
import { REACTION_TYPES, timelineEvents, type DbOrTx, type ReactionType } from '@story/db';
import { badRequest, notFound } from '@story/http';
import type { Sql } from 'postgres';
import type { AccessPolicy } from '../access/access.policy';

export interface TimelineEventInput {
  familyGroupId: string | null;
  actorId: string;
  eventType: string;
  subjectType?: string;
  subjectId?: string;
  title?: string;
  data?: Record<string, unknown>;
}

/** Write one event inside the caller's transaction. */
export async function recordEvent(tx: DbOrTx, e: TimelineEventInput): Promise<void> {
  await tx.insert(timelineEvents).values({
    familyGroupId: e.familyGroupId,
    actorId: e.actorId,
    eventType: e.eventType,
    subjectType: e.subjectType ?? null,
    subjectId: e.subjectId ?? null,
    title: e.title ?? null,
    data: e.data ?? {},
  });
}

/**
 * A timestamp from a raw postgres.js query as ISO 8601 UTC. Drizzle's driver makes the shared client
 * return timestamps as PostgreSQL text ("2026-01-02 03:04:05.678+00"), so raw queries get strings.
 */
export function toIso(v: Date | string): string {
  if (v instanceof Date) return v.toISOString();
  return new Date(v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
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

interface EventRow {
  id: string;
  family_group_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  event_type: string;
  subject_type: string | null;
  subject_id: string | null;
  title: string | null;
  data: Record<string, unknown>;
  occurred_at: Date | string;
  cursor_at: string;
  likes: number;
  loves: number;
  celebrates: number;
  mine: ReactionType | null;
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

export function createTimelineService({ sql, access }: { sql: Sql; access: Pick<AccessPolicy, 'require' | 'requireGroup'> }) {
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

  // One statement: the visibility rule, the keyset page and the reaction counts (lateral, per event).
  async function select(callerId: string, filter: { familyGroupId?: string; eventId?: string; before?: { at: string; id: string }; limit: number }): Promise<EventRow[]> {
    return sql<EventRow[]>`
      with mine as (
        select family_group_id from family_members where user_id = ${callerId} and status = 'active'
      )
      select e.id, e.family_group_id, e.actor_id, coalesce(p.display_name, p.full_name) as actor_name, e.event_type,
             e.subject_type, e.subject_id, e.title, e.data, e.occurred_at, e.occurred_at::text as cursor_at,
             rc.likes, rc.loves, rc.celebrates, rc.mine
        from timeline_events e
        left join profiles p on p.id = e.actor_id
        cross join lateral (
          select count(*) filter (where r.type = 'like')::int as likes,
                 count(*) filter (where r.type = 'love')::int as loves,
                 count(*) filter (where r.type = 'celebrate')::int as celebrates,
                 max(r.type) filter (where r.user_id = ${callerId}) as mine
            from timeline_reactions r where r.event_id = e.id
        ) rc
       where (e.family_group_id in (select family_group_id from mine)
              or (e.family_group_id is null
                  and (e.actor_id = ${callerId}
                       or e.actor_id in (select fm.user_id from family_members fm join mine using (family_group_id) where fm.status = 'active'))))
         ${filter.familyGroupId ? sql`and e.family_group_id = ${filter.familyGroupId}` : sql``}
         ${filter.eventId ? sql`and e.id = ${filter.eventId}` : sql``}
         ${filter.before ? sql`and (e.occurred_at, e.id) < (${filter.before.at}::timestamptz, ${filter.before.id}::uuid)` : sql``}
       order by e.occurred_at desc, e.id desc
       limit ${filter.limit}`;
  }

  return {
    async list(callerId: string, q: { familyId?: string; limit: number; cursor?: string }): Promise<{ events: TimelineEventView[]; nextCursor: string | null }> {
      // Asking for one group's timeline is an access check of its own: a non-member gets 404.
      if (q.familyId) await access.requireGroup(callerId, q.familyId, 'view_stories');
      const before = q.cursor ? decodeCursor(q.cursor) : undefined;
      const rows = await select(callerId, { familyGroupId: q.familyId, before, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return { events: page.map(toView), nextCursor: rows.length > q.limit && last ? encodeCursor(last.cursor_at, last.id) : null };
    },

    /** One reaction per person per event: reacting again changes its type. */
    async react(callerId: string, eventId: string, type: ReactionType): Promise<{ eventId: string; type: ReactionType; reactions: ReactionCounts }> {
      if (!(REACTION_TYPES as readonly string[]).includes(type)) throw badRequest(`Invalid type: must be one of ${REACTION_TYPES.join(', ')}`, { field: 'type' });
      const [event] = await sql<{ family_group_id: string | null; actor_id: string | null }[]>`select family_group_id, actor_id from timeline_events where id = ${eventId}`;
      if (!event) throw notFound('Timeline event');
      if (event.family_group_id) await access.requireGroup(callerId, event.family_group_id, 'comment_on_stories');
      else if (event.actor_id) await access.require(callerId, event.actor_id, 'comment_on_stories', 'Timeline event');
      else throw notFound('Timeline event');
      await sql`
        insert into timeline_reactions (event_id, user_id, type) values (${eventId}, ${callerId}, ${type})
        on conflict (event_id, user_id) do update set type = excluded.type, updated_at = now()`;
      const [row] = await select(callerId, { eventId, limit: 1 });
      return { eventId, type, reactions: row ? toView(row).reactions : { like: 0, love: 0, celebrate: 0 } };
    },

    async unreact(callerId: string, eventId: string): Promise<{ eventId: string; reactions: ReactionCounts }> {
      const [row] = await select(callerId, { eventId, limit: 1 });
      if (!row) throw notFound('Timeline event');
      await sql`delete from timeline_reactions where event_id = ${eventId} and user_id = ${callerId}`;
      const [after] = await select(callerId, { eventId, limit: 1 });
      return { eventId, reactions: after ? toView(after).reactions : { like: 0, love: 0, celebrate: 0 } };
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
