// The SQL of family invitations (CONVENTIONS 7). Tokens reach this file only as their sha256.
import { and, eq, sql } from 'drizzle-orm';
import { familyInvitations, one, type DbOrTx, type InvitationRole } from '@story/db';

export type InvitationRow = typeof familyInvitations.$inferSelect;

export interface NewInvitation {
  familyGroupId: string;
  invitedBy: string;
  email: string;
  role: InvitationRole;
  relationship: string | null;
  message: string | null;
  tokenHash: string;
  expiresAt: Date;
}

export function createInvitationsRepository(db: DbOrTx) {
  /** Closes an invitation with a final status (closed_at set). */
  const close = async (id: string, status: 'expired' | 'cancelled' | 'rejected', tx: DbOrTx) => {
    await tx.update(familyInvitations).set({ status, closedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyInvitations.id, id));
  };

  return {
    /**
     * Invitations the user sent in the last hour: creations plus resends, so the limit covers every route
     * that invites (the campaign create flow too) and holds across replicas. The one SQL of the
     * 5-per-hour invitation limit.
     */
    async countSentLastHour(invitedBy: string, tx: DbOrTx = db): Promise<number> {
      const rows = await tx.execute<{ n: number }>(sql`
        select (count(*) filter (where created_at > now() - interval '1 hour')
              + count(*) filter (where resent_count > 0 and last_sent_at > now() - interval '1 hour'))::int as n
          from family_invitations where invited_by = ${invitedBy}`);
      return rows[0]?.n ?? 0;
    },

    async listForGroup(groupId: string, tx: DbOrTx = db): Promise<InvitationRow[]> {
      return tx.select().from(familyInvitations).where(eq(familyInvitations.familyGroupId, groupId)).orderBy(sql`${familyInvitations.createdAt} desc`);
    },

    async findByTokenHash(tokenHash: string, tx: DbOrTx = db): Promise<InvitationRow | undefined> {
      const [row] = await tx.select().from(familyInvitations).where(eq(familyInvitations.tokenHash, tokenHash));
      return row;
    },

    /** The invitation behind a token hash, locked for the rest of `tx`. */
    async lockByTokenHash(tokenHash: string, tx: DbOrTx): Promise<InvitationRow | undefined> {
      const [row] = await tx.select().from(familyInvitations).where(eq(familyInvitations.tokenHash, tokenHash)).for('update');
      return row;
    },

    /** One invitation of the group, locked for the rest of `tx`. */
    async lockInGroup(groupId: string, invitationId: string, tx: DbOrTx): Promise<InvitationRow | undefined> {
      const [row] = await tx.select().from(familyInvitations).where(and(eq(familyInvitations.id, invitationId), eq(familyInvitations.familyGroupId, groupId))).for('update');
      return row;
    },

    /** The pending invitation of an address to the group (expired or not), locked for the rest of `tx`. */
    async lockPendingFor(groupId: string, email: string, tx: DbOrTx): Promise<InvitationRow | undefined> {
      const [open] = await tx
        .select()
        .from(familyInvitations)
        .where(and(eq(familyInvitations.familyGroupId, groupId), eq(familyInvitations.email, email), eq(familyInvitations.status, 'pending')))
        .for('update');
      return open;
    },

    async insert(input: NewInvitation, tx: DbOrTx = db): Promise<InvitationRow> {
      return one(await tx.insert(familyInvitations).values({ ...input, lastSentAt: new Date() }).returning());
    },

    /** A new token and a new expiry for a pending invitation; counts as one more send. */
    async rotateToken(id: string, tokenHash: string, expiresAt: Date, tx: DbOrTx = db): Promise<InvitationRow> {
      return one(
        await tx
          .update(familyInvitations)
          .set({
            tokenHash,
            expiresAt,
            resentCount: sql`${familyInvitations.resentCount} + 1`,
            lastSentAt: sql`now()`,
            updatedAt: sql`now()`,
          })
          .where(eq(familyInvitations.id, id))
          .returning(),
      );
    },

    markExpired: (id: string, tx: DbOrTx = db) => close(id, 'expired', tx),
    markCancelled: (id: string, tx: DbOrTx = db) => close(id, 'cancelled', tx),
    markRejected: (id: string, tx: DbOrTx = db) => close(id, 'rejected', tx),

    /** Accept this invitation for `userId` once that account verifies the address (signup-with-invitation). */
    async reserveForVerification(id: string, userId: string, tx: DbOrTx): Promise<void> {
      await tx.update(familyInvitations).set({ acceptOnVerifyBy: userId, updatedAt: sql`now()` }).where(eq(familyInvitations.id, id));
    },

    /** The pending invitations reserved for `userId`, locked for the rest of `tx`. */
    async lockReservedFor(userId: string, tx: DbOrTx): Promise<InvitationRow[]> {
      return tx
        .select()
        .from(familyInvitations)
        .where(and(eq(familyInvitations.acceptOnVerifyBy, userId), eq(familyInvitations.status, 'pending')))
        .for('update');
    },

    async markAccepted(id: string, acceptedBy: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(familyInvitations).set({ status: 'accepted', acceptedBy, acceptedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyInvitations.id, id));
    },
  };
}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
