// Family invitations (CONTRACTS §6). The token is 256 random bits, shown once (in the invite URL and the
// email) and stored only as its sha256, so a database leak does not leak working links. Invitations last
// 7 days; resending rotates the token (the old link stops working) and restarts the 7 days.
//
// Decisions the spec leaves open:
// - Accept and reject need the signed-in account's email to equal the invited address (403 otherwise):
//   the invitation is for that person, and a forwarded link must not let someone else in. That address must
//   be verified (CONTRACTS §7, 403 otherwise): anyone can sign up with any address.
// - The family-members allowance is the GROUP OWNER's tier; it counts active members other than the owner
//   plus pending invitations, so inviting cannot outrun the allowance and accept never fails on it.
// - 5 invitations per hour per inviter (spec Limits), counted in the database (creations plus resends of
//   the last hour) so the limit covers every route that invites, including the campaign create flow, and
//   holds across replicas. It is scaled by RATE_LIMIT_SCALE like every other limit.
// - Inviting an address that already has a pending invitation to the group resends it instead of
//   creating a duplicate; inviting an active member is a 409.
// - An expired or already used token is refused (410 expired, 409 already used) and nothing is written.
//
// The work is split along its seams: create and send (invitations-send.service.ts), the invitee's answer
// (invitations-answer.service.ts) and the owner's management (invitations-manage.service.ts); this file
// puts them together as the one service routes and the campaign create flow use.
import type { Database } from '@story/db';
import type { AccessPolicy } from '../access/access.policy';
import { createFamilyGroupsRepository } from './family-groups.repository';
import { createFamilyMembersRepository } from './family-members.repository';
import { createInvitationAnswers } from './invitations-answer.service';
import { createInvitationManagement } from './invitations-manage.service';
import { createInvitationSender } from './invitations-send.service';
import { createInvitationsRepository } from './invitations.repository';
import { inviteUrlFor } from './invitations.views';

export { INVITATION_TTL_MS, hashInvitationToken, type CreateInvitationInput, type InvitationListItem, type InvitationView } from './invitations.views';

export interface InvitationsDeps {
  db: Database;
  access: Pick<AccessPolicy, 'requireGroup'>;
  appUrl: string;
  /** RATE_LIMIT_SCALE: multiplies the hourly invitation limit (load tests and ordinary tests raise it). */
  rateScale: number;
}

export function createInvitationsService({ db, access, appUrl, rateScale }: InvitationsDeps) {
  const invitations = createInvitationsRepository(db);
  const groups = createFamilyGroupsRepository(db);
  const members = createFamilyMembersRepository(db);
  return {
    ...createInvitationSender({ db, invitations, groups, members, access, inviteUrl: inviteUrlFor(appUrl), rateScale }),
    ...createInvitationManagement({ db, invitations, access }),
    ...createInvitationAnswers({ db, invitations, groups, members }),
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
