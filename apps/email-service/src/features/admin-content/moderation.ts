// Content moderation (spec 001 "Admin resources": draft, reviewed, approved, published). A record moves
// one step forward at a time, so nothing is published unreviewed; any step may send it back to draft.
import { CONTENT_STATUSES, type ContentStatus } from '@story/db';
import { conflict } from '@story/http';

export { CONTENT_STATUSES, type ContentStatus };

const NEXT: Record<ContentStatus, readonly ContentStatus[]> = {
  draft: ['reviewed'],
  reviewed: ['approved', 'draft'],
  approved: ['published', 'draft'],
  published: ['draft'],
};

export const allowedNext = (from: ContentStatus): readonly ContentStatus[] => NEXT[from];

/** Throws 409 CONFLICT naming the allowed moves when `from` -> `to` is not one of them. */
export function assertTransition(from: ContentStatus, to: ContentStatus): void {
  if (NEXT[from].includes(to)) return;
  const allowed = NEXT[from].join(' or ');
  throw conflict(`Cannot move from ${from} to ${to}; from ${from} the status may become ${allowed}`, {
    code: 'INVALID_TRANSITION',
    details: { field: 'status', from, to, allowed: NEXT[from] },
  });
}
