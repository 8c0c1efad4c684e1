// POST /api/auth/signup-with-invitation: a new account and its acceptance of a family invitation in one
// transaction, reusing the auth service's signup and the invitations service's accept. The invitation is
// checked as accept checks it (unknown 404, expired 410, already answered 409, sent to another address
// 403); any refusal rolls the signup back, so no account is left without the membership it came for.
//
// Accepting needs a verified address (CONTRACTS §7), and an account made here is new, so unverified: the
// acceptance is refused (403 with the sentence of invitations-answer.service) and nothing is created. The
// invitation token proves nothing about the mailbox (the inviter holds the same link), so it cannot stand
// in for the verification; the client signs up, confirms the address, then accepts.
import type { AuthService, ClientMeta } from '../auth/auth.service';
import type { InvitationsService } from '../family/invitations.service';

export interface InvitationSignupInput {
  email: string;
  password: string;
  fullName?: string;
  token: string;
}

export function createInvitationSignup({ auth, invitations }: { auth: Pick<AuthService, 'signup'>; invitations: Pick<InvitationsService, 'accept'> }) {
  return {
    async signup(input: InvitationSignupInput, meta: ClientMeta) {
      const { token, ...account } = input;
      const { within, ...result } = await auth.signup(account, meta, (tx, created) => invitations.accept(created.id, created.email, token, tx));
      // signup returns `within` whenever it was given one; its absence would be a bug, not a refusal.
      if (!within) throw new Error('signup did not run the invitation step');
      return { ...result, invitation: within };
    },
  };
}

export type InvitationSignup = ReturnType<typeof createInvitationSignup>;
