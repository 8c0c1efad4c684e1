// POST /api/auth/signup-with-invitation: a new account and its claim on a family invitation in one
// transaction, reusing the auth service's signup and the invitations service's checks. The invitation is
// checked as accept checks it (unknown 404, expired 410, already answered 409, sent to another address
// 403); any refusal rolls the signup back, so no account is left without the invitation it came for.
//
// Accepting needs a verified address (CONTRACTS §7), and an account made here is new, so unverified, and the
// invitation token proves nothing about the mailbox (the inviter holds the same link). So the invitation is
// not accepted here: it is kept for this account (family_invitations.accept_on_verify_by) and accepted when
// the account first verifies the address through one of its own sessions (the emailed verification link
// opened where the account is signed in). A verification that proves someone else holds the mailbox (a magic
// link, the link opened elsewhere, a provider's claim) ends this account's earlier ways in, and the kept
// invitation with them: it stays pending for the mailbox's owner to accept.
import type { AuthService, ClientMeta } from '../auth/auth.service';
import type { InvitationsService } from '../family/invitations.service';

export interface InvitationSignupInput {
  email: string;
  password: string;
  fullName?: string;
  token: string;
}

export function createInvitationSignup({ auth, invitations }: { auth: Pick<AuthService, 'signup'>; invitations: Pick<InvitationsService, 'reserveForVerification'> }) {
  return {
    async signup(input: InvitationSignupInput, meta: ClientMeta) {
      const { token, ...account } = input;
      const { within, ...result } = await auth.signup(account, meta, (tx, created) => invitations.reserveForVerification(created.id, created.email, token, tx));
      // signup returns `within` whenever it was given one; its absence would be a bug, not a refusal.
      if (!within) throw new Error('signup did not run the invitation step');
      return { ...result, invitation: within };
    },
  };
}

export type InvitationSignup = ReturnType<typeof createInvitationSignup>;
