// Family groups, members, relationships, shared memories, media, story prompts and the leaderboard
// (spec 000 Family). Every call with a group id asks the policy module first (requireGroup): a caller who
// is not an active member gets 404, a role without the permission 403. What each role may do:
//   read anything in the group ................ every active member (view_stories)
//   add a memory or a relationship ............ contributor and owner (upload_photos / create_stories)
//   edit or delete a memory ................... its author (edit_own_stories) or the owner (edit_stories)
//   add a placeholder member, invite .......... the owner (invite_family)
//   change roles, remove, merge members ....... the owner (manage_settings); anyone may edit their own
//                                               name and relationship, or leave the group
//
// The work is split along its seams (family-groups, family-members, family-relationships and
// family-memories services, each over its repository); this file puts them together as the one service
// the family routes use.
import type { Database } from '@story/db';
import type { AccessPolicy } from '../access/access.policy';
import { createFamilyGroupsRepository } from './family-groups.repository';
import { createFamilyGroupsService } from './family-groups.service';
import { createFamilyMembersRepository } from './family-members.repository';
import { createFamilyMembersService } from './family-members.service';
import { createFamilyMemoriesRepository } from './family-memories.repository';
import { createFamilyMemoriesService } from './family-memories.service';
import { createFamilyRelationshipsRepository } from './family-relationships.repository';
import { createFamilyRelationshipsService } from './family-relationships.service';

export { createGroupInTx, type GroupDetail, type GroupView } from './family-groups.service';
export type { MemberView } from './family-members.service';
export type { MemoryView } from './family-memories.service';

export function createFamilyService({ db, access }: { db: Database; access: Pick<AccessPolicy, 'requireGroup'> }) {
  const groups = createFamilyGroupsRepository(db);
  const members = createFamilyMembersRepository(db);
  const relationships = createFamilyRelationshipsRepository(db);
  const memories = createFamilyMemoriesRepository(db);
  return {
    ...createFamilyGroupsService({ db, groups, members, access }),
    ...createFamilyMembersService({ db, groups, members, relationships, access }),
    ...createFamilyRelationshipsService({ db, members, relationships, access }),
    ...createFamilyMemoriesService({ db, memories, access }),
  };
}

export type FamilyService = ReturnType<typeof createFamilyService>;
