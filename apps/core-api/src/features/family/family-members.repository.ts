// The SQL of family members (CONVENTIONS 7): member views with their shown name, placeholders, role and
// status changes, membership by invitation, and the per-member counts of the leaderboard.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { familyMembers, one, type DbOrTx, type InvitationRole } from '@story/db';

export type MemberRow = {
  id: string;
  user_id: string | null;
  display_name: string;
  email: string | null;
  role: string;
  relationship: string | null;
  status: string;
  avatar_url: string | null;
  joined_at: Date | string;
  removed_at: Date | string | null;
  merged_into_id: string | null;
};

export type MemberStatusFilter = 'active' | 'removed' | 'all';

export interface MemberPatch {
  role?: 'family_contributor' | 'family_viewer';
  relationship?: string | null;
  displayName?: string | null;
}

export type LeaderboardRow = {
  member_id: string;
  user_id: string;
  name: string;
  stories: number;
  recordings: number;
  memories: number;
};

// Name shown for a member: the group's own label first, then the account's profile, then the address.
const MEMBER_COLUMNS = sql`m.id, m.user_id,
       coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1), 'Family member') as display_name,
       coalesce(m.email, a.email) as email, m.role, m.relationship, m.status, coalesce(m.avatar_url, p.avatar_url) as avatar_url,
       m.joined_at, m.removed_at, m.merged_into_id`;

export function createFamilyMembersRepository(db: DbOrTx) {
  const select = (where: SQL, tx: DbOrTx) =>
    tx.execute<MemberRow>(sql`
      select ${MEMBER_COLUMNS}
        from family_members m
        left join accounts a on a.id = m.user_id
        left join profiles p on p.id = m.user_id
       where ${where}
       order by m.joined_at, m.id`);

  return {
    async findInGroup(groupId: string, memberId: string, tx: DbOrTx = db): Promise<MemberRow | undefined> {
      const [row] = await select(sql`m.family_group_id = ${groupId} and m.id = ${memberId}`, tx);
      return row;
    },

    async listInGroup(groupId: string, status: MemberStatusFilter, tx: DbOrTx = db): Promise<MemberRow[]> {
      return select(status === 'all' ? sql`m.family_group_id = ${groupId}` : sql`m.family_group_id = ${groupId} and m.status = ${status}`, tx);
    },

    /** Active members of every group the user is active in (or of one of them). */
    async listActiveInGroupsOf(userId: string, groupId: string | undefined, tx: DbOrTx = db): Promise<(MemberRow & { family_group_id: string })[]> {
      return tx.execute<MemberRow & { family_group_id: string }>(sql`
        select m.family_group_id, ${MEMBER_COLUMNS}
          from family_members m
          join family_members me on me.family_group_id = m.family_group_id and me.user_id = ${userId} and me.status = 'active'
          left join accounts a on a.id = m.user_id
          left join profiles p on p.id = m.user_id
         where m.status = 'active' ${groupId ? sql`and m.family_group_id = ${groupId}` : sql``}
         order by m.family_group_id, m.joined_at, m.id`);
    },

    /** id, account, status and role of one member of the group. */
    async state(groupId: string, memberId: string, tx: DbOrTx = db) {
      const [m] = await tx.select({ id: familyMembers.id, userId: familyMembers.userId, status: familyMembers.status, role: familyMembers.role }).from(familyMembers).where(and(eq(familyMembers.id, memberId), eq(familyMembers.familyGroupId, groupId)));
      return m;
    },

    /** Is an address (of the account, or the one the member row holds) an active member of the group? */
    async hasActiveMemberWithEmail(groupId: string, email: string, tx: DbOrTx = db): Promise<boolean> {
      const members = await tx.execute<{ id: string }>(sql`
        select fm.id from family_members fm left join accounts a on a.id = fm.user_id
         where fm.family_group_id = ${groupId} and fm.status = 'active' and (lower(a.email) = ${email} or lower(fm.email) = ${email})
         limit 1`);
      return members.length > 0;
    },

    /** The user's role in the group while active, else undefined. */
    async activeRole(groupId: string, userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [me] = await tx.execute<{ role: string }>(sql`select role from family_members where family_group_id = ${groupId} and user_id = ${userId} and status = 'active'`);
      return me?.role;
    },

    /** Names and roles of the first 50 active members, in joining order. */
    async activeNames(groupId: string, tx: DbOrTx = db): Promise<{ name: string; role: string }[]> {
      return tx.execute<{ name: string; role: string }>(sql`
        select coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1), 'Family member') as name, m.role
          from family_members m left join profiles p on p.id = m.user_id left join accounts a on a.id = m.user_id
         where m.family_group_id = ${groupId} and m.status = 'active'
         order by m.joined_at limit 50`);
    },

    /** The account's address and whether it is verified (accepting an invitation needs a verified one). */
    async accountAddress(userId: string, tx: DbOrTx = db): Promise<{ email: string; verified: boolean } | undefined> {
      const rows = await tx.execute<{ email: string; verified: boolean }>(sql`
        select email, email_confirmed_at is not null as verified from accounts where id = ${userId}`);
      return rows[0];
    },

    /** An account's name for messages (profile, else the address's local part). */
    async accountName(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const rows = await tx.execute<{ name: string }>(sql`
        select coalesce(nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1)) as name
          from accounts a left join profiles p on p.id = a.id where a.id = ${userId}`);
      return rows[0]?.name;
    },

    async insertPlaceholder(groupId: string, input: { displayName: string; relationship?: string | null; email?: string | null }, tx: DbOrTx = db): Promise<string> {
      const row = one(
        await tx
          .insert(familyMembers)
          .values({ familyGroupId: groupId, userId: null, role: 'family_viewer', displayName: input.displayName, relationship: input.relationship ?? null, email: input.email?.toLowerCase() ?? null })
          .returning({ id: familyMembers.id }),
      );
      return row.id;
    },

    /** Join by invitation. Re-joining after removal reuses the membership row (one row per account per group). */
    async upsertActive(input: { groupId: string; userId: string; role: InvitationRole; relationship: string | null; email: string }, tx: DbOrTx = db): Promise<{ id: string; role: string }> {
      return one(
        await tx
          .insert(familyMembers)
          .values({ familyGroupId: input.groupId, userId: input.userId, role: input.role, relationship: input.relationship, email: input.email, status: 'active' })
          .onConflictDoUpdate({
            target: [familyMembers.familyGroupId, familyMembers.userId],
            set: {
              role: input.role,
              status: 'active',
              // The member list shows the address that accepted (CONTRACTS §7), also on re-joining.
              email: input.email,
              removedAt: null,
              relationship: sql`coalesce(${input.relationship}, ${familyMembers.relationship})`,
              joinedAt: sql`now()`,
              updatedAt: sql`now()`,
            },
          })
          .returning({ id: familyMembers.id, role: familyMembers.role }),
      );
    },

    async update(memberId: string, patch: MemberPatch, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(familyMembers)
        .set({
          ...(patch.role !== undefined ? { role: patch.role } : {}),
          ...(patch.relationship !== undefined ? { relationship: patch.relationship } : {}),
          ...(patch.displayName !== undefined ? { displayName: patch.displayName } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(familyMembers.id, memberId));
    },

    /** Soft removal: access checks read status, so the member loses access with this statement. */
    async markRemoved(memberId: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(familyMembers).set({ status: 'removed', removedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyMembers.id, memberId));
    },

    /** The given members of the group, locked for the rest of `tx`. */
    async lockInGroup(groupId: string, memberIds: string[], tx: DbOrTx) {
      return tx.select().from(familyMembers).where(and(eq(familyMembers.familyGroupId, groupId), inArray(familyMembers.id, memberIds))).for('update');
    },

    /** The merge's last step: the real member takes over identity fields, the placeholder is retired into it. */
    async retireInto(memberId: string, intoMemberId: string, keep: { relationship: string | null; displayName: string | null; email: string | null }, tx: DbOrTx): Promise<void> {
      await tx
        .update(familyMembers)
        .set({ relationship: keep.relationship, displayName: keep.displayName, email: keep.email, updatedAt: sql`now()` })
        .where(eq(familyMembers.id, intoMemberId));
      await tx.update(familyMembers).set({ status: 'removed', removedAt: sql`now()`, mergedIntoId: intoMemberId, updatedAt: sql`now()` }).where(eq(familyMembers.id, memberId));
    },

    /**
     * Contributions per active member with an account, counted from real rows: stories they wrote
     * (metadata.authorId when a contributor wrote into someone's campaign, else the owner), recordings
     * they made, memories they added to this group.
     */
    async contributions(groupId: string, tx: DbOrTx = db): Promise<LeaderboardRow[]> {
      return tx.execute<LeaderboardRow>(sql`
        select m.id as member_id, m.user_id,
               coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1)) as name,
               (select count(*)::int from stories s where coalesce(s.metadata->>'authorId', s.user_id::text) = m.user_id::text) as stories,
               (select count(*)::int from recordings r where r.user_id = m.user_id) as recordings,
               (select count(*)::int from family_memories f where f.family_group_id = m.family_group_id and f.created_by = m.user_id) as memories
          from family_members m
          join accounts a on a.id = m.user_id
          left join profiles p on p.id = m.user_id
         where m.family_group_id = ${groupId} and m.status = 'active'`);
    },
  };
}

export type FamilyMembersRepository = ReturnType<typeof createFamilyMembersRepository>;
