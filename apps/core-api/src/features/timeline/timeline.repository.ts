// The SQL of the family timeline: events, their visibility rule and their reactions (CONVENTIONS 7).
// Methods take plain values and an optional transaction, and return rows as PostgreSQL gives them.
import { sql } from 'drizzle-orm';
import { timelineEvents, type DbOrTx, type ReactionType } from '@story/db';

export interface TimelineEventInput {
  familyGroupId: string | null;
  actorId: string;
  eventType: string;
  subjectType?: string;
  subjectId?: string;
  title?: string;
  data?: Record<string, unknown>;
}

export type EventRow = {
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
};

export interface EventFilter {
  familyGroupId?: string;
  eventId?: string;
  before?: { at: string; id: string };
  limit: number;
}

/**
 * A timestamp from a raw query as ISO 8601 UTC. Drizzle's driver makes the shared client return
 * timestamps as PostgreSQL text ("2026-01-02 03:04:05.678+00"), so raw queries get strings.
 */
export function toIso(v: Date | string): string {
  if (v instanceof Date) return v.toISOString();
  return new Date(v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}

export function createTimelineRepository(db: DbOrTx) {
  return {
    /** Write one event (inside the caller's transaction when given). */
    async insertEvent(e: TimelineEventInput, tx: DbOrTx = db): Promise<void> {
      await tx.insert(timelineEvents).values({
        familyGroupId: e.familyGroupId,
        actorId: e.actorId,
        eventType: e.eventType,
        subjectType: e.subjectType ?? null,
        subjectId: e.subjectId ?? null,
        title: e.title ?? null,
        data: e.data ?? {},
      });
    },

    // One statement: the visibility rule, the keyset page and the reaction counts (lateral, per event).
    // Who sees an event: the active members of its group; an event without a group (the actor's own) is
    // seen by the actor and by everyone who shares an active group with the actor.
    async selectVisible(callerId: string, filter: EventFilter, tx: DbOrTx = db): Promise<EventRow[]> {
      return tx.execute<EventRow>(sql`
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
         limit ${filter.limit}`);
    },

    /** The event's group and actor, whatever the caller may see (the access check decides next). */
    async findEvent(eventId: string, tx: DbOrTx = db): Promise<{ family_group_id: string | null; actor_id: string | null } | undefined> {
      const [event] = await tx.execute<{ family_group_id: string | null; actor_id: string | null }>(sql`select family_group_id, actor_id from timeline_events where id = ${eventId}`);
      return event;
    },

    /** One reaction per person per event: reacting again changes its type. */
    async upsertReaction(eventId: string, userId: string, type: ReactionType, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`
        insert into timeline_reactions (event_id, user_id, type) values (${eventId}, ${userId}, ${type})
        on conflict (event_id, user_id) do update set type = excluded.type, updated_at = now()`);
    },

    async deleteReaction(eventId: string, userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`delete from timeline_reactions where event_id = ${eventId} and user_id = ${userId}`);
    },

    /** Events point at subjects without a foreign key: a deleted subject takes its own events with it. */
    async deleteEventsOfSubject(subjectType: string, subjectId: string, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`delete from timeline_events where subject_type = ${subjectType} and subject_id = ${subjectId}`);
    },
  };
}

export type TimelineRepository = ReturnType<typeof createTimelineRepository>;
