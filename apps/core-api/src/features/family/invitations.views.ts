// What the invitation services share: the token (256 random bits, kept only as its sha256), the status
// as a reader sees it, and the shapes returned to routes.
import { createHash, randomBytes } from 'node:crypto';
import type { InvitationRole, InvitationStatus } from '@story/db';
import type { InvitationRow } from './invitations.repository';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InvitationView {
  id: string;
  email: string;
  role: InvitationRole;
  status: InvitationStatus;
  expiresAt: string;
  inviteUrl: string;
}

export interface InvitationListItem {
  id: string;
  email: string;
  role: InvitationRole;
  status: InvitationStatus;
  relationship: string | null;
  message: string | null;
  expiresAt: string;
  createdAt: string;
  resentCount: number;
  lastSentAt: string | null;
}

export interface CreateInvitationInput {
  familyGroupId: string;
  email: string;
  role: InvitationRole;
  relationship?: string | null;
  message?: string | null;
}

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const newInvitationToken = () => randomBytes(32).toString('base64url');
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const newExpiry = () => new Date(Date.now() + INVITATION_TTL_MS);

/** pending past its expiry reads as expired, without a write. */
export const effectiveStatus = (row: Pick<InvitationRow, 'status' | 'expiresAt'>): InvitationStatus =>
  row.status === 'pending' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;

/** j***@example.com: enough for the invitee to recognise the address, not enough to harvest it. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export const inviteUrlFor = (appUrl: string) => (token: string) => `${appUrl.replace(/\/+$/, '')}/invite/${token}`;

export const toListItem = (r: InvitationRow, status: InvitationStatus): InvitationListItem => ({
  id: r.id,
  email: r.email,
  role: r.role,
  status,
  relationship: r.relationship,
  message: r.message,
  expiresAt: r.expiresAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  resentCount: r.resentCount,
  lastSentAt: r.lastSentAt?.toISOString() ?? null,
});
