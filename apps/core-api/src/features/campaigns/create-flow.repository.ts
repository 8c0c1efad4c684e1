// The SQL of the campaign create flow (CONVENTIONS 7), on Drizzle's builder: campaign_create_flows rows,
// and the family group, member and invitation lookups its family step needs.
import { and, asc, eq, sql } from 'drizzle-orm';
import { campaignCreateFlows, familyGroups, familyInvitations, familyMembers, one, type Database, type DbOrTx } from '@story/db';

export type FlowRow = typeof campaignCreateFlows.$inferSelect;
type FlowChanges = Partial<Pick<FlowRow, 'steps' | 'currentStep' | 'familyMembers' | 'giftAddress' | 'status'>> & { completed?: boolean };

export function createCreateFlowRepository(db: Database) {
  /** Groups the caller owns (an active owner membership). */
  const ownedGroups = (tx: DbOrTx, callerId: string) =>
    tx
      .select({ id: familyGroups.id })
      .from(familyGroups)
      .innerJoin(familyMembers, and(eq(familyMembers.familyGroupId, familyGroups.id), eq(familyMembers.userId, callerId), eq(familyMembers.role, 'owner'), eq(familyMembers.status, 'active')))
      .$dynamic();

  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    async findByCampaign(campaignId: string, options: { lock?: boolean } = {}, tx: DbOrTx = db): Promise<FlowRow | undefined> {
      const q = tx.select().from(campaignCreateFlows).where(eq(campaignCreateFlows.campaignId, campaignId));
      const [row] = options.lock ? await q.for('update') : await q;
      return row;
    },

    /** The caller's oldest open flow, if any. */
    async findOpen(userId: string, tx: DbOrTx = db): Promise<FlowRow | undefined> {
      const [open] = await tx
        .select()
        .from(campaignCreateFlows)
        .where(and(eq(campaignCreateFlows.userId, userId), eq(campaignCreateFlows.status, 'in_progress')))
        .orderBy(asc(campaignCreateFlows.createdAt))
        .limit(1);
      return open;
    },

    async insert(campaignId: string, userId: string, tx: DbOrTx = db): Promise<FlowRow> {
      return one(await tx.insert(campaignCreateFlows).values({ campaignId, userId }).returning());
    },

    async update(campaignId: string, changes: FlowChanges, tx: DbOrTx = db): Promise<FlowRow> {
      const { completed, ...set } = changes;
      return one(
        await tx
          .update(campaignCreateFlows)
          .set({ ...set, ...(completed ? { completedAt: sql`now()` } : {}), updatedAt: sql`now()` })
          .where(eq(campaignCreateFlows.campaignId, campaignId))
          .returning(),
      );
    },

    async ownedGroupById(callerId: string, groupId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [g] = await ownedGroups(tx, callerId).where(eq(familyGroups.id, groupId));
      return g?.id;
    },

    async oldestOwnedGroup(callerId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [oldest] = await ownedGroups(tx, callerId).orderBy(asc(familyGroups.createdAt)).limit(1);
      return oldest?.id;
    },

    /** An active member of the group with this email (their account's, or the one they were added with). */
    async isActiveMemberEmail(groupId: string, email: string, tx: DbOrTx = db): Promise<boolean> {
      const member = await tx.execute<{ id: string }>(sql`
        select fm.id from family_members fm left join accounts a on a.id = fm.user_id
         where fm.family_group_id = ${groupId} and fm.status = 'active' and (lower(a.email) = ${email} or lower(fm.email) = ${email}) limit 1`);
      return member.length > 0;
    },

    async pendingInvitation(groupId: string, email: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [pending] = await tx
        .select({ id: familyInvitations.id })
        .from(familyInvitations)
        .where(and(eq(familyInvitations.familyGroupId, groupId), eq(familyInvitations.email, email), eq(familyInvitations.status, 'pending'), sql`${familyInvitations.expiresAt} > now()`));
      return pending?.id;
    },

    async cancelPendingInvitation(invitationId: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(familyInvitations)
        .set({ status: 'cancelled', closedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(familyInvitations.id, invitationId), eq(familyInvitations.status, 'pending')));
    },
  };
}
