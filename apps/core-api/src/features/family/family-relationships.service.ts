// Relationships between members of a group: every member reads them; contributors and the owner
// (create_stories) record one between two active members.
import type { Database, DbOrTx } from '@story/db';
import { badRequest, conflict } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import type { FamilyMembersRepository } from './family-members.repository';
import type { FamilyRelationshipsRepository, RelationshipRow } from './family-relationships.repository';

export interface FamilyRelationshipsDeps {
  db: Database;
  members: FamilyMembersRepository;
  relationships: FamilyRelationshipsRepository;
  access: Pick<AccessPolicy, 'requireGroup'>;
}

const toView = (r: RelationshipRow) => ({ id: r.id, fromMemberId: r.fromMemberId, toMemberId: r.toMemberId, relationshipType: r.relationshipType, createdBy: r.createdBy, createdAt: r.createdAt.toISOString() });

export function createFamilyRelationshipsService({ db, members, relationships, access }: FamilyRelationshipsDeps) {
  async function activeMemberOrThrow(tx: DbOrTx, groupId: string, memberId: string, field: string) {
    const m = await members.state(groupId, memberId, tx);
    if (!m || m.status !== 'active') throw badRequest(`Invalid ${field}: not an active member of this family`, { field });
    return m;
  }

  return {
    async listRelationships(callerId: string, groupId: string) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return (await relationships.listInGroup(groupId)).map(toView);
    },

    async addRelationship(callerId: string, groupId: string, input: { fromMemberId: string; toMemberId: string; relationshipType: string }) {
      await access.requireGroup(callerId, groupId, 'create_stories');
      if (input.fromMemberId === input.toMemberId) throw badRequest('Invalid toMemberId: a relationship needs two different members', { field: 'toMemberId' });
      const row = await db.transaction(async (tx) => {
        await activeMemberOrThrow(tx, groupId, input.fromMemberId, 'fromMemberId');
        await activeMemberOrThrow(tx, groupId, input.toMemberId, 'toMemberId');
        const inserted = await relationships.insertUnlessExists({ groupId, ...input, createdBy: callerId }, tx);
        if (!inserted) throw conflict('This relationship is already recorded', { code: 'relationship_exists' });
        return inserted;
      });
      return toView(row);
    },
  };
}
