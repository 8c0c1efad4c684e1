// The membership reads the access policy decides on (CONVENTIONS 7), raw postgres.js. Read on every
// call, never cached, so removing a member revokes access at once.
import type { Fragment, Sql } from 'postgres';
import type { SqlOrTx } from '../sql-fragments';

/**
 * The ids of every account sharing an active group with the caller (the caller excluded), as a subquery
 * with one column, `user_id`. List queries embed it, so the caller's family is read in the same statement
 * (and the same snapshot) as the rows it unlocks, without a round trip of its own.
 */
export const coMemberIds = (q: SqlOrTx, callerId: string): Fragment => q`
  select distinct theirs.user_id
    from family_members mine
    join family_members theirs
      on theirs.family_group_id = mine.family_group_id and theirs.status = 'active' and theirs.user_id is not null
   where mine.user_id = ${callerId} and mine.status = 'active' and theirs.user_id <> ${callerId}`;

export function createAccessRepository(sql: Sql) {
  return {
    /**
     * The caller's active memberships in groups the owner is also an active member of, each with whether
     * the owner created that group (only there does an invitee's role count).
     */
    sharedMemberships: (callerId: string, ownerId: string) =>
      sql<{ role: string; ownersGroup: boolean }[]>`
        select mine.role, g.created_by = ${ownerId} as "ownersGroup"
          from family_members mine
          join family_members theirs
            on theirs.family_group_id = mine.family_group_id
           and theirs.user_id = ${ownerId} and theirs.status = 'active'
          join family_groups g on g.id = mine.family_group_id
         where mine.user_id = ${callerId} and mine.status = 'active'`,

    async activeRoleInGroup(callerId: string, groupId: string): Promise<string | undefined> {
      const [row] = await sql<{ role: string }[]>`
        select role from family_members where family_group_id = ${groupId} and user_id = ${callerId} and status = 'active'`;
      return row?.role;
    },

    /** Every account sharing an active group with the caller (the caller excluded). */
    async coMembers(callerId: string): Promise<string[]> {
      const rows = await sql<{ user_id: string }[]>`${coMemberIds(sql, callerId)}`;
      return rows.map((r) => r.user_id);
    },
  };
}
