// The SQL of family groups (CONVENTIONS 7): the caller's groups, one group's view, creation with its
// owner member, the row lock that serialises seat-taking writes, and the seat count of the allowance.
import { eq, sql } from 'drizzle-orm';
import { familyGroups, familyMembers, one, type DbOrTx } from '@story/db';

export type GroupRow = {
  id: string;
  name: string;
  description: string | null;
  member_count: number;
  role: string;
};

export type GroupDetailRow = GroupRow & {
  settings: Record<string, unknown>;
  created_by: string;
  created_at: Date | string;
};

export interface GroupSummary {
  id: string;
  name: string;
  description: string | null;
  memberCount: number;
}

export interface NewGroup {
  name: string;
  description?: string | null;
  settings?: Record<string, unknown>;
}

export function createFamilyGroupsRepository(db: DbOrTx) {
  return {
    /** Groups the user is an active member of, newest first, with the user's role. */
    async listForMember(userId: string, tx: DbOrTx = db): Promise<GroupRow[]> {
      return tx.execute<GroupRow>(sql`
        select g.id, g.name, g.description, me.role,
               (select count(*)::int from family_members m where m.family_group_id = g.id and m.status = 'active') as member_count
          from family_members me join family_groups g on g.id = me.family_group_id
         where me.user_id = ${userId} and me.status = 'active'
         order by g.created_at desc, g.id`);
    },

    /** One group as seen by one of its active members (undefined for anyone else). */
    async detailForMember(userId: string, groupId: string, tx: DbOrTx = db): Promise<GroupDetailRow | undefined> {
      const [g] = await tx.execute<GroupDetailRow>(sql`
        select g.id, g.name, g.description, g.settings, g.created_by, g.created_at, me.role,
               (select count(*)::int from family_members m where m.family_group_id = g.id and m.status = 'active') as member_count
          from family_groups g
          join family_members me on me.family_group_id = g.id and me.user_id = ${userId} and me.status = 'active'
         where g.id = ${groupId}`);
      return g;
    },

    /** Name, description and active member count, for invitation pages. */
    async summary(groupId: string, tx: DbOrTx = db): Promise<GroupSummary | null> {
      const [g] = await tx.execute<{ id: string; name: string; description: string | null; member_count: number }>(sql`
        select g.id, g.name, g.description,
               (select count(*)::int from family_members m where m.family_group_id = g.id and m.status = 'active') as member_count
          from family_groups g where g.id = ${groupId}`);
      return g ? { id: g.id, name: g.name, description: g.description, memberCount: g.member_count } : null;
    },

    /** The group with its creator as owner member, in `tx` (access needs that member row). Returns the id. */
    async insertWithOwner(ownerId: string, input: NewGroup, tx: DbOrTx = db): Promise<string> {
      const group = one(await tx.insert(familyGroups).values({ createdBy: ownerId, name: input.name, description: input.description ?? null, settings: input.settings ?? {} }).returning({ id: familyGroups.id }));
      await tx.insert(familyMembers).values({ familyGroupId: group.id, userId: ownerId, role: 'owner', status: 'active' });
      return group.id;
    },

    /** Locks the group row: seat-taking writes to one group (and their allowance count) run one at a time. */
    async lockForUpdate(groupId: string, tx: DbOrTx): Promise<{ id: string; name: string; createdBy: string } | undefined> {
      const [group] = await tx.select({ id: familyGroups.id, name: familyGroups.name, createdBy: familyGroups.createdBy }).from(familyGroups).where(eq(familyGroups.id, groupId)).for('update');
      return group;
    },

    /** Seats taken against the owner's family-members allowance: members other than the owner, plus open invitations. */
    async seatsUsed(groupId: string, tx: DbOrTx = db): Promise<number> {
      const rows = await tx.execute<{ n: number }>(sql`
        select ((select count(*) from family_members where family_group_id = ${groupId} and status = 'active' and role <> 'owner')
              + (select count(*) from family_invitations where family_group_id = ${groupId} and status = 'pending' and expires_at > now()))::int as n`);
      return rows[0]?.n ?? 0;
    },
  };
}

export type FamilyGroupsRepository = ReturnType<typeof createFamilyGroupsRepository>;
