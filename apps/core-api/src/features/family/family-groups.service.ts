// Family groups: the caller's groups, creating one (its creator becomes the owner member) and the
// contributions leaderboard of a group.
import type { Database, DbOrTx } from '@story/db';
import { notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import { recordEvent, toIso } from '../timeline/timeline.service';
import { createFamilyGroupsRepository, type FamilyGroupsRepository, type NewGroup } from './family-groups.repository';
import type { FamilyMembersRepository } from './family-members.repository';

export interface GroupView {
  id: string;
  name: string;
  description: string | null;
  member_count: number;
  role: string;
}

export type GroupDetail = GroupView & { settings: Record<string, unknown>; createdBy: string; createdAt: string };

/** Create a group with its creator as owner member (shared with the campaign create flow). Returns the id. */
export async function createGroupInTx(tx: DbOrTx, callerId: string, input: NewGroup): Promise<string> {
  const id = await createFamilyGroupsRepository(tx).insertWithOwner(callerId, input, tx);
  await recordEvent(tx, { familyGroupId: id, actorId: callerId, eventType: 'group_created', subjectType: 'family_group', subjectId: id, title: input.name });
  return id;
}

export interface FamilyGroupsDeps {
  db: Database;
  groups: FamilyGroupsRepository;
  members: FamilyMembersRepository;
  access: Pick<AccessPolicy, 'requireGroup'>;
}

export function createFamilyGroupsService({ db, groups, members, access }: FamilyGroupsDeps) {
  async function groupView(callerId: string, groupId: string): Promise<GroupDetail> {
    const g = await groups.detailForMember(callerId, groupId);
    if (!g) throw notFound('Family group');
    return { id: g.id, name: g.name, description: g.description, member_count: g.member_count, role: g.role, settings: g.settings, createdBy: g.created_by, createdAt: toIso(g.created_at) };
  }

  return {
    async listGroups(callerId: string): Promise<GroupView[]> {
      const rows = await groups.listForMember(callerId);
      return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, member_count: r.member_count, role: r.role }));
    },

    /** The creator becomes the group's owner member in the same transaction (access needs that row). */
    async createGroup(callerId: string, input: NewGroup): Promise<GroupDetail> {
      const id = await db.transaction((tx) => createGroupInTx(tx, callerId, input));
      return groupView(callerId, id);
    },

    async getGroup(callerId: string, groupId: string): Promise<GroupDetail> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return groupView(callerId, groupId);
    },

    /** Points per member: story 10, recording 5, memory 3; equal points share a rank. */
    async leaderboard(callerId: string, groupId: string) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await members.contributions(groupId);
      const scored = rows
        .map((r) => ({ memberId: r.member_id, userId: r.user_id, displayName: r.name, stories: r.stories, recordings: r.recordings, memories: r.memories, points: r.stories * 10 + r.recordings * 5 + r.memories * 3 }))
        .sort((a, b) => b.points - a.points || a.displayName.localeCompare(b.displayName));
      let rank = 0;
      let prev = Number.NaN;
      return scored.map((r, n) => {
        if (r.points !== prev) rank = n + 1;
        prev = r.points;
        return { ...r, rank };
      });
    },
  };
}
