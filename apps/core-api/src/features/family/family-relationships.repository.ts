// The SQL of relationships between family members (CONVENTIONS 7).
import { eq, sql } from 'drizzle-orm';
import { familyRelationships, type DbOrTx } from '@story/db';

export type RelationshipRow = typeof familyRelationships.$inferSelect;

export function createFamilyRelationshipsRepository(db: DbOrTx) {
  return {
    async listInGroup(groupId: string, tx: DbOrTx = db): Promise<RelationshipRow[]> {
      return tx.select().from(familyRelationships).where(eq(familyRelationships.familyGroupId, groupId)).orderBy(familyRelationships.createdAt);
    },

    /** The new edge, or undefined when the same edge is already recorded. */
    async insertUnlessExists(input: { groupId: string; fromMemberId: string; toMemberId: string; relationshipType: string; createdBy: string }, tx: DbOrTx = db): Promise<RelationshipRow | undefined> {
      const [inserted] = await tx
        .insert(familyRelationships)
        .values({ familyGroupId: input.groupId, fromMemberId: input.fromMemberId, toMemberId: input.toMemberId, relationshipType: input.relationshipType, createdBy: input.createdBy })
        .onConflictDoNothing()
        .returning();
      return inserted;
    },

    /** A merged member's edges move to the member it was merged into. */
    async moveEdges(memberId: string, intoMemberId: string, tx: DbOrTx): Promise<void> {
      // Move each edge unless it would duplicate one the real member already has or point at itself:
      // those are deleted first, so the updates below never hit the unique index.
      await tx.execute(sql`
        delete from family_relationships r
         where (r.from_member_id = ${memberId} and (r.to_member_id = ${intoMemberId} or exists (
                  select 1 from family_relationships d where d.from_member_id = ${intoMemberId} and d.to_member_id = r.to_member_id and d.relationship_type = r.relationship_type)))
            or (r.to_member_id = ${memberId} and (r.from_member_id = ${intoMemberId} or exists (
                  select 1 from family_relationships d where d.to_member_id = ${intoMemberId} and d.from_member_id = r.from_member_id and d.relationship_type = r.relationship_type)))`);
      await tx.update(familyRelationships).set({ fromMemberId: intoMemberId }).where(eq(familyRelationships.fromMemberId, memberId));
      await tx.update(familyRelationships).set({ toMemberId: intoMemberId }).where(eq(familyRelationships.toMemberId, memberId));
    },
  };
}

export type FamilyRelationshipsRepository = ReturnType<typeof createFamilyRelationshipsRepository>;
