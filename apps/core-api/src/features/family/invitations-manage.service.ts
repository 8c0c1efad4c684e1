// The owner's view of a group's invitations: the list (with lapsed ones read as expired) and cancelling.
import type { Database, InvitationStatus } from '@story/db';
import { conflict, notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import type { InvitationsRepository } from './invitations.repository';
import { effectiveStatus, toListItem, type InvitationListItem } from './invitations.views';

export interface InvitationManagementDeps {
  db: Database;
  invitations: InvitationsRepository;
  access: Pick<AccessPolicy, 'requireGroup'>;
}

export function createInvitationManagement({ db, invitations, access }: InvitationManagementDeps) {
  return {
    async list(callerId: string, groupId: string, status?: InvitationStatus): Promise<InvitationListItem[]> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      const rows = await invitations.listForGroup(groupId);
      return rows
        .map((r) => ({ r, status: effectiveStatus(r) }))
        .filter((x) => !status || x.status === status)
        .map(({ r, status: s }) => toListItem(r, s));
    },

    /** The link stops working at once; only a pending invitation can be cancelled. */
    async cancel(callerId: string, groupId: string, invitationId: string): Promise<{ id: string; status: InvitationStatus }> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      return db.transaction(async (tx) => {
        const row = await invitations.lockInGroup(groupId, invitationId, tx);
        if (!row) throw notFound('Invitation');
        if (row.status !== 'pending') throw conflict(`This invitation was already ${row.status}`, { code: `invitation_${row.status}` });
        await invitations.markCancelled(row.id, tx);
        return { id: row.id, status: 'cancelled' as const };
      });
    },
  };
}
