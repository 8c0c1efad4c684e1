// Members of a family group: listing, placeholders (relatives without an account), role and name
// changes, removal or leaving, and merging a placeholder into a member with an account.
//   add a placeholder ......................... the owner (invite_family)
//   change roles, remove, merge members ....... the owner (manage_settings); anyone may edit their own
//                                               name and relationship, or leave the group
import type { Database } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import { toIso } from '../timeline/timeline.service';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';
import type { FamilyGroupsRepository } from './family-groups.repository';
import type { FamilyMembersRepository, MemberPatch, MemberRow, MemberStatusFilter } from './family-members.repository';
import type { FamilyRelationshipsRepository } from './family-relationships.repository';

export interface MemberView {
  id: string;
  userId: string | null;
  displayName: string;
  email: string | null;
  role: string;
  relationship: string | null;
  status: string;
  avatarUrl: string | null;
  isPlaceholder: boolean;
  joinedAt: string;
  removedAt: string | null;
  mergedIntoId: string | null;
}

const toMember = (r: MemberRow): MemberView => ({
  id: r.id,
  userId: r.user_id,
  displayName: r.display_name,
  email: r.email,
  role: r.role,
  relationship: r.relationship,
  status: r.status,
  avatarUrl: r.avatar_url,
  isPlaceholder: r.user_id === null,
  joinedAt: toIso(r.joined_at),
  removedAt: r.removed_at ? toIso(r.removed_at) : null,
  mergedIntoId: r.merged_into_id,
});

export interface FamilyMembersDeps {
  db: Database;
  groups: FamilyGroupsRepository;
  members: FamilyMembersRepository;
  relationships: FamilyRelationshipsRepository;
  access: Pick<AccessPolicy, 'requireGroup'>;
}

export function createFamilyMembersService({ db, groups, members, relationships, access }: FamilyMembersDeps) {
  async function memberOf(groupId: string, memberId: string): Promise<MemberRow> {
    const row = await members.findInGroup(groupId, memberId);
    if (!row) throw notFound('Family member');
    return row;
  }

  return {
    async listAllMembers(callerId: string, groupId?: string): Promise<(MemberView & { familyGroupId: string })[]> {
      if (groupId) await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await members.listActiveInGroupsOf(callerId, groupId);
      return rows.map((r) => ({ ...toMember(r), familyGroupId: r.family_group_id }));
    },

    async listMembers(callerId: string, groupId: string, status: MemberStatusFilter = 'active'): Promise<MemberView[]> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return (await members.listInGroup(groupId, status)).map(toMember);
    },

    async getMember(callerId: string, groupId: string, memberId: string): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return toMember(await memberOf(groupId, memberId));
    },

    /** A placeholder member (a relative without an account, e.g. the storyteller); merge links an account later. */
    async addPlaceholder(callerId: string, groupId: string, input: { displayName: string; relationship?: string | null; email?: string | null }): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      const id = await db.transaction(async (tx) => {
        // The group row lock serialises seat-taking writes (invitations too), so the allowance holds.
        const group = await groups.lockForUpdate(groupId, tx);
        if (!group) throw notFound('Family group');
        const used = await groups.seatsUsed(groupId, tx);
        assertAllowance(await lockTier(tx, group.createdBy), 'familyMembers', used, 1);
        return members.insertPlaceholder(groupId, input, tx);
      });
      return toMember(await memberOf(groupId, id));
    },

    async updateMember(callerId: string, groupId: string, memberId: string, input: MemberPatch): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const target = await memberOf(groupId, memberId);
      const isSelf = target.user_id === callerId;
      // Changing a role is the owner's; anyone may correct their own name and relationship.
      if (input.role !== undefined || !isSelf) await access.requireGroup(callerId, groupId, 'manage_settings');
      if (target.status !== 'active') throw conflict('This member was removed from the family', { code: 'member_removed' });
      if (input.role !== undefined && target.role === 'owner') throw conflict("The group owner's role cannot change", { field: 'role' });
      // null clears the name only where an account still names the member (the identity CHECK constraint).
      if (input.displayName === null && !target.user_id) {
        throw badRequest('Invalid displayName: a member without an account needs a name, so it cannot be cleared', { field: 'displayName' });
      }
      await members.update(memberId, input);
      return toMember(await memberOf(groupId, memberId));
    },

    /** Soft removal: access checks read status, so the member loses access with this statement. */
    async removeMember(callerId: string, groupId: string, memberId: string): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const target = await memberOf(groupId, memberId);
      if (target.user_id !== callerId) await access.requireGroup(callerId, groupId, 'manage_settings');
      if (target.role === 'owner') throw conflict('The group owner cannot be removed', { code: 'owner_not_removable' });
      if (target.status !== 'active') throw conflict('This member was already removed', { code: 'member_removed' });
      await members.markRemoved(memberId);
      return toMember(await memberOf(groupId, memberId));
    },

    /**
     * Merge a placeholder member into a member with an account: the placeholder is retired (removed,
     * merged_into_id set), its relationship edges move to the real member, and the real member keeps its
     * own name and relationship unless it had none.
     */
    async mergeMember(callerId: string, groupId: string, memberId: string, intoMemberId: string): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'manage_settings');
      if (memberId === intoMemberId) throw badRequest('Invalid intoMemberId: a member cannot be merged into itself', { field: 'intoMemberId' });
      await db.transaction(async (tx) => {
        const rows = await members.lockInGroup(groupId, [memberId, intoMemberId], tx);
        const source = rows.find((r) => r.id === memberId);
        const target = rows.find((r) => r.id === intoMemberId);
        if (!source) throw notFound('Family member');
        if (!target) throw badRequest('Invalid intoMemberId: not a member of this family', { field: 'intoMemberId' });
        if (source.userId !== null) throw badRequest('Only a placeholder member (one without an account) can be merged into another', { field: 'memberId' });
        if (source.status !== 'active') throw conflict('This placeholder was already merged or removed', { code: 'member_removed' });
        if (target.userId === null || target.status !== 'active') throw badRequest('Invalid intoMemberId: must be an active member with an account', { field: 'intoMemberId' });
        await relationships.moveEdges(memberId, intoMemberId, tx);
        await members.retireInto(
          memberId,
          intoMemberId,
          { relationship: target.relationship ?? source.relationship, displayName: target.displayName ?? source.displayName, email: target.email ?? source.email },
          tx,
        );
      });
      return toMember(await memberOf(groupId, intoMemberId));
    },
  };
}
