// Creating and resending family invitations: the checks that refuse before anything is written (already a
// member, the hourly invitation limit, the owner's family-members allowance), the row, and its email.
// One open invitation per address and group: inviting again resends it.
import { triggerFamilyInvitation } from '@story/email';
import { conflict, countedLimit, notFound } from '@story/http';
import type { Database, DbOrTx } from '@story/db';
import type { AccessPolicy } from '../access/access.policy';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';
import type { FamilyGroupsRepository } from './family-groups.repository';
import type { FamilyMembersRepository } from './family-members.repository';
import type { InvitationRow, InvitationsRepository } from './invitations.repository';
import { effectiveStatus, hashInvitationToken, newExpiry, newInvitationToken, normalizeEmail, type CreateInvitationInput, type InvitationView } from './invitations.views';


export interface InvitationSenderDeps {
  db: Database;
  invitations: InvitationsRepository;
  groups: FamilyGroupsRepository;
  members: FamilyMembersRepository;
  access: Pick<AccessPolicy, 'requireGroup'>;
  inviteUrl: (token: string) => string;
  /** RATE_LIMIT_SCALE: multiplies the hourly invitation limit (load tests and ordinary tests raise it). */
  rateScale: number;
}

export function createInvitationSender({ db, invitations, groups, members, access, inviteUrl, rateScale }: InvitationSenderDeps) {
  // Spec 000 Limits: family invites 5 per hour, from the one limit table (libs/http limits).
  const invites = countedLimit('core.invites', rateScale);

  const view = (row: InvitationRow, token: string): InvitationView => ({
    id: row.id,
    email: row.email,
    role: row.role,
    status: effectiveStatus(row),
    expiresAt: row.expiresAt.toISOString(),
    inviteUrl: inviteUrl(token),
  });

  /** The hourly invitation limit of the inviter (creations plus resends), counted in the database. */
  async function assertInviteAllowance(tx: DbOrTx, callerId: string): Promise<void> {
    invites.assert(await invitations.countSentLastHour(callerId, tx), 3600);
  }

  /** Locks the group row: invitations to one group (and their allowance count) run one at a time. */
  async function lockGroup(tx: DbOrTx, groupId: string) {
    const group = await groups.lockForUpdate(groupId, tx);
    if (!group) throw notFound('Family group');
    return group;
  }

  async function queueEmail(tx: DbOrTx, callerId: string, group: { id: string; name: string }, row: InvitationRow, token: string): Promise<void> {
    await triggerFamilyInvitation(tx, callerId, {
      family_id: group.id,
      family_name: group.name,
      inviter_name: (await members.accountName(callerId, tx)) ?? 'A relative',
      invitation_token: token,
      invitation_url: inviteUrl(token),
      to_email: row.email,
      role: row.role === 'family_contributor' ? 'contributor' : 'viewer',
      ...(row.message ? { message: row.message } : {}),
      // One email per send: a retried request inside the same send does not email twice.
      idempotency_key: `invite:${row.id}:${row.resentCount}`,
    });
  }

  /** Rotate the token of a pending invitation and email it again. */
  async function resendRow(tx: DbOrTx, callerId: string, group: { id: string; name: string }, row: InvitationRow): Promise<InvitationView> {
    const token = newInvitationToken();
    const updated = await invitations.rotateToken(row.id, hashInvitationToken(token), newExpiry(), tx);
    await queueEmail(tx, callerId, group, updated, token);
    return view(updated, token);
  }

  /**
   * Create (or resend) one invitation inside `tx`. The caller must already hold invite_family on the
   * group (checked by `create`, or by the create flow on its own group). Throws before writing anything
   * on every refusal.
   */
  async function createInTx(tx: DbOrTx, callerId: string, input: CreateInvitationInput): Promise<{ invitation: InvitationView; resent: boolean }> {
    const email = normalizeEmail(input.email);
    const group = await lockGroup(tx, input.familyGroupId);

    if (await members.hasActiveMemberWithEmail(group.id, email, tx)) throw conflict(`${email} is already a member of this family`, { field: 'email' });

    await assertInviteAllowance(tx, callerId);

    const open = await invitations.lockPendingFor(group.id, email, tx);
    if (open && open.expiresAt.getTime() > Date.now()) {
      return { invitation: await resendRow(tx, callerId, group, open), resent: true };
    }

    const tier = await lockTier(tx, group.createdBy);
    assertAllowance(tier, 'familyMembers', await groups.seatsUsed(group.id, tx), 1);

    // A lapsed pending invitation makes way for the new one (one open invitation per address).
    if (open) await invitations.markExpired(open.id, tx);

    const token = newInvitationToken();
    const row = await invitations.insert(
      {
        familyGroupId: group.id,
        invitedBy: callerId,
        email,
        role: input.role,
        relationship: input.relationship ?? null,
        message: input.message ?? null,
        tokenHash: hashInvitationToken(token),
        expiresAt: newExpiry(),
      },
      tx,
    );
    await queueEmail(tx, callerId, group, row, token);
    return { invitation: view(row, token), resent: false };
  }

  return {
    createInTx,

    async create(callerId: string, input: CreateInvitationInput): Promise<{ invitation: InvitationView; resent: boolean }> {
      await access.requireGroup(callerId, input.familyGroupId, 'invite_family');
      return db.transaction((tx) => createInTx(tx, callerId, input));
    },

    async resend(callerId: string, groupId: string, invitationId: string): Promise<InvitationView> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      return db.transaction(async (tx) => {
        const group = await lockGroup(tx, groupId);
        const row = await invitations.lockInGroup(groupId, invitationId, tx);
        if (!row) throw notFound('Invitation');
        if (row.status !== 'pending') throw conflict(`Only a pending invitation can be resent; this one was ${row.status}`, { code: `invitation_${row.status}` });
        await assertInviteAllowance(tx, callerId);
        // A lapsed invitation is revived by the resend: its seat must still fit the allowance.
        if (row.expiresAt.getTime() <= Date.now()) assertAllowance(await lockTier(tx, group.createdBy), 'familyMembers', await groups.seatsUsed(groupId, tx), 1);
        return resendRow(tx, callerId, group, row);
      });
    },
  };
}
