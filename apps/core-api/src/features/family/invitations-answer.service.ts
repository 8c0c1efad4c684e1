// The invitee's side of an invitation: what it is for (before and after signing in), accepting or
// declining it, and the welcome page of the family joined. Accept and reject need the signed-in account's
// email to equal the invited address: the invitation is for that person, and a forwarded link must not
// let someone else in. An expired or already used token is refused and nothing is written. Answering also
// needs the account's address to be verified (CONTRACTS §7): before that, nothing shows the account holds
// the invited mailbox (anyone can sign up with any address). That refusal comes before the token is looked
// up, so it is the same whether or not the invitation exists.
import type { Database, DbOrTx } from '@story/db';
import { AppError, conflict, forbidden, notFound } from '@story/http';
import { recordEvent } from '../timeline/timeline.service';
import type { FamilyGroupsRepository } from './family-groups.repository';
import type { FamilyMembersRepository } from './family-members.repository';
import type { InvitationRow, InvitationsRepository } from './invitations.repository';
import { effectiveStatus, hashInvitationToken, maskEmail, normalizeEmail } from './invitations.views';

export interface InvitationAnswersDeps {
  db: Database;
  invitations: InvitationsRepository;
  groups: FamilyGroupsRepository;
  members: FamilyMembersRepository;
}

/** Only a pending, unexpired invitation for the caller's own address may be answered. */
function assertAnswerable(row: InvitationRow, callerEmail: string): void {
  const status = effectiveStatus(row);
  if (status === 'expired') throw new AppError('gone', 'This invitation has expired. Ask for a new one.', { code: 'invitation_expired' });
  if (status !== 'pending') throw conflict(`This invitation was already ${status}`, { code: `invitation_${status}` });
  if (normalizeEmail(callerEmail) !== row.email) {
    throw forbidden('This invitation was sent to a different email address. Sign in with the invited address to answer it.', { code: 'invitation_email_mismatch' });
  }
}

/** The sentence of the refusal to an account whose address is not verified. */
export const UNVERIFIED_ANSWER =
  'Accepting or declining an invitation needs a verified email address. Confirm your address with the link we emailed you, then open the invitation again.';

export function createInvitationAnswers({ db, invitations, groups, members }: InvitationAnswersDeps) {
  /** The caller's stored address, refused (403) while it is not verified. */
  async function verifiedAddress(callerId: string, tx: DbOrTx): Promise<string> {
    const account = await members.accountAddress(callerId, tx);
    if (!account) throw new AppError('unauthorized', 'Unauthorized');
    if (!account.verified) throw forbidden(UNVERIFIED_ANSWER, { code: 'email_not_verified' });
    return account.email;
  }

  async function byToken(token: string): Promise<InvitationRow> {
    const row = await invitations.findByTokenHash(hashInvitationToken(token));
    if (!row) throw notFound('Invitation');
    return row;
  }

  async function inviterOf(userId: string | null): Promise<{ name: string | null }> {
    if (!userId) return { name: null };
    return { name: (await members.accountName(userId)) ?? 'A relative' };
  }

  /** The membership an accepted invitation gives, the invitation closed, and the timeline told. */
  async function join(row: InvitationRow, userId: string, tx: DbOrTx): Promise<{ id: string; role: string }> {
    const member = await members.upsertActive({ groupId: row.familyGroupId, userId, role: row.role, relationship: row.relationship, email: row.email }, tx);
    await invitations.markAccepted(row.id, userId, tx);
    await recordEvent(tx, {
      familyGroupId: row.familyGroupId,
      actorId: userId,
      eventType: 'member_joined',
      subjectType: 'member',
      subjectId: member.id,
      title: `${(await members.accountName(userId, tx)) ?? 'A relative'} joined the family`,
      data: { role: member.role },
    });
    return { id: member.id, role: member.role };
  }

  return {
    /** Before sign-in: just enough to decide whether to sign up (no id, the address masked). */
    async preview(token: string) {
      const row = await byToken(token);
      const group = await groups.summary(row.familyGroupId);
      return {
        invitation: {
          status: effectiveStatus(row),
          role: row.role,
          expiresAt: row.expiresAt.toISOString(),
          emailHint: maskEmail(row.email),
          familyName: group?.name ?? '',
          inviterName: (await inviterOf(row.invitedBy)).name,
          message: row.message,
        },
      };
    },

    /** Signed in: the whole invitation, and whether this account may answer it. */
    async details(callerEmail: string, token: string) {
      const row = await byToken(token);
      const group = await groups.summary(row.familyGroupId);
      const status = effectiveStatus(row);
      const emailMatches = normalizeEmail(callerEmail) === row.email;
      return {
        invitation: {
          id: row.id,
          email: row.email,
          role: row.role,
          status,
          relationship: row.relationship,
          message: row.message,
          expiresAt: row.expiresAt.toISOString(),
          family: group ?? { id: row.familyGroupId, name: '', description: null, memberCount: 0 },
          invitedBy: await inviterOf(row.invitedBy),
        },
        emailMatches,
        canAccept: status === 'pending' && emailMatches,
      };
    },

    /**
     * Joins the caller to the family (re-joining reuses a removed membership) and records it on the timeline.
     * Given `outer`, it runs inside that transaction.
     */
    async accept(callerId: string, _callerEmail: string, token: string, outer?: DbOrTx) {
      return (outer ?? db).transaction(async (tx) => {
        // The stored, verified address decides, not the one in the token's claims.
        const callerEmail = await verifiedAddress(callerId, tx);
        const row = await invitations.lockByTokenHash(hashInvitationToken(token), tx);
        if (!row) throw notFound('Invitation');
        assertAnswerable(row, callerEmail);
        const member = await join(row, callerId, tx);
        return { familyGroupId: row.familyGroupId, member, welcomeUrl: `/api/family/welcome/${token}` };
      });
    },

    /**
     * signup-with-invitation: the new account's address is not verified yet, so the invitation cannot be
     * accepted now; it is checked as accept checks it (404, 410, 409, 403 for another address) and kept for
     * this account, which joins when it first verifies the address through one of its own sessions
     * (`acceptReserved`). The invitation stays pending meanwhile: the invitee may still accept it directly.
     */
    async reserveForVerification(callerId: string, callerEmail: string, token: string, tx: DbOrTx) {
      const row = await invitations.lockByTokenHash(hashInvitationToken(token), tx);
      if (!row) throw notFound('Invitation');
      assertAnswerable(row, callerEmail);
      await invitations.reserveForVerification(row.id, callerId, tx);
      return { id: row.id, familyGroupId: row.familyGroupId, role: row.role, status: 'awaiting_verification' as const, expiresAt: row.expiresAt.toISOString() };
    },

    /**
     * The first verification of `userId`'s address, presented by one of its own sessions (auth
     * email-verification): every invitation reserved for it at signup that is still pending, unexpired and
     * addressed to the now verified address is accepted, in the verification's transaction.
     */
    async acceptReserved(userId: string, tx: DbOrTx): Promise<{ familyGroupId: string; memberId: string }[]> {
      const address = await members.accountAddress(userId, tx);
      if (!address?.verified) return [];
      const joined: { familyGroupId: string; memberId: string }[] = [];
      for (const row of await invitations.lockReservedFor(userId, tx)) {
        if (effectiveStatus(row) !== 'pending' || normalizeEmail(address.email) !== row.email) continue;
        const member = await join(row, userId, tx);
        joined.push({ familyGroupId: row.familyGroupId, memberId: member.id });
      }
      return joined;
    },

    async reject(callerId: string, token: string): Promise<{ status: 'rejected' }> {
      return db.transaction(async (tx) => {
        const callerEmail = await verifiedAddress(callerId, tx);
        const row = await invitations.lockByTokenHash(hashInvitationToken(token), tx);
        if (!row) throw notFound('Invitation');
        assertAnswerable(row, callerEmail);
        await invitations.markRejected(row.id, tx);
        return { status: 'rejected' as const };
      });
    },

    /** After accepting: the family the caller just joined. Only the account that accepted sees it. */
    async welcome(callerId: string, token: string) {
      const row = await invitations.findByTokenHash(hashInvitationToken(token));
      if (!row || row.status !== 'accepted' || row.acceptedBy !== callerId) throw notFound('Invitation');
      // Still a member? A removed member's welcome page is gone with the access.
      const role = await members.activeRole(row.familyGroupId, callerId);
      if (!role) throw notFound('Invitation');
      const group = await groups.summary(row.familyGroupId);
      if (!group) throw notFound('Invitation');
      const names = await members.activeNames(row.familyGroupId);
      return {
        family: group,
        role,
        invitedBy: await inviterOf(row.invitedBy),
        members: names.map((m) => ({ name: m.name, role: m.role })),
      };
    },
  };
}
