// The second half of signup-with-invitation (see invitation-signup.service.ts): the hook auth's email
// verification calls when an account first verifies its address through one of its own sessions, in that
// transaction; the invitations kept for the account are accepted there.
import type { Database, DbOrTx } from '@story/db';
import { createFamilyGroupsRepository } from '../family/family-groups.repository';
import { createFamilyMembersRepository } from '../family/family-members.repository';
import { createInvitationAnswers } from '../family/invitations-answer.service';
import { createInvitationsRepository } from '../family/invitations.repository';

export function acceptKeptInvitations(db: Database): (userId: string, tx: DbOrTx) => Promise<unknown> {
  const answers = createInvitationAnswers({
    db,
    invitations: createInvitationsRepository(db),
    groups: createFamilyGroupsRepository(db),
    members: createFamilyMembersRepository(db),
  });
  return (userId, tx) => answers.acceptReserved(userId, tx);
}
