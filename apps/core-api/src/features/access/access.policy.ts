// The one place that decides who may do what with a storyteller's content (spec 000 Authentication 4-5).
// Every route with an id asks this module; nothing else compares user ids for access.
//
// The model: content belongs to an owner account (the campaign owner, the storyteller's keeper). The owner
// holds campaign_owner over it. The role an invitation grants (family_contributor or family_viewer) applies
// to the content of the group's owner, who invited them: a contributor of Ann's group may add stories to
// Ann's library. Every other co-member of an ACTIVE group (the group's owner over a member's library, two
// invitees over each other's) may see, as spec 000's "Who may see and download" table says, and nothing
// more: nobody creates or edits in another member's library without having been invited to it as
// contributor. Everyone else has no role and gets 404, never data. Membership is read on every call, so
// removing a member revokes access at once.
import type { Sql } from 'postgres';
import { AppError, isUuid, notFound } from '@story/http';
import { createAccessRepository } from './access.repository';

export const CONTENT_ROLES = ['campaign_owner', 'family_contributor', 'family_viewer'] as const;
export type ContentRole = (typeof CONTENT_ROLES)[number];

export const PERMISSIONS = [
  'view_stories',
  'create_stories',
  'edit_stories',
  'edit_own_stories',
  'delete_stories',
  'invite_family',
  'manage_settings',
  'create_books',
  'view_analytics',
  'comment_on_stories',
  'upload_photos',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The spec's table, plus view_stories for every role (a contributor who may edit may also read). */
export const ROLE_PERMISSIONS: Readonly<Record<ContentRole, ReadonlySet<Permission>>> = {
  // The owner holds every permission of the table.
  campaign_owner: new Set<Permission>(PERMISSIONS),
  family_contributor: new Set<Permission>(['view_stories', 'create_stories', 'edit_own_stories', 'comment_on_stories', 'upload_photos']),
  family_viewer: new Set<Permission>(['view_stories', 'comment_on_stories']),
};

const RANK: Record<ContentRole, number> = { campaign_owner: 3, family_contributor: 2, family_viewer: 1 };

/** May `role` do `permission`? For edit_stories, an author holding edit_own_stories may edit their own. */
export function permits(role: ContentRole | null, permission: Permission, opts: { isAuthor?: boolean } = {}): boolean {
  if (!role) return false;
  const granted = ROLE_PERMISSIONS[role];
  if (granted.has(permission)) return true;
  return permission === 'edit_stories' && opts.isAuthor === true && granted.has('edit_own_stories');
}

export interface AccessPolicy {
  /** The caller's role over content owned by `ownerId`, or null when the caller may not see it at all. */
  roleFor(callerId: string, ownerId: string): Promise<ContentRole | null>;
  /** Every owner whose content the caller may see (the caller first), for list queries. */
  visibleOwners(callerId: string): Promise<string[]>;
  /**
   * Throws 404 (naming `what`) when the caller has no role, 403 when the role lacks the permission;
   * returns the role otherwise.
   */
  require(callerId: string, ownerId: string, permission: Permission, what: string, opts?: { isAuthor?: boolean }): Promise<ContentRole>;
  /**
   * The caller's role inside one family group (its owner and campaign owners act as campaign_owner there),
   * or null unless the caller is an ACTIVE member of it.
   */
  groupRoleFor(callerId: string, groupId: string): Promise<ContentRole | null>;
  /** Like `require`, over a family group: 404 for non-members (removed ones included), 403 for a role without the permission. */
  requireGroup(callerId: string, groupId: string, permission: Permission, opts?: { isAuthor?: boolean }): Promise<ContentRole>;
}

/** A membership row's role as a permission role: the group's creator manages it like a campaign owner. */
export function groupRoleOf(memberRole: string): ContentRole {
  if (memberRole === 'owner' || memberRole === 'campaign_owner') return 'campaign_owner';
  return memberRole === 'family_contributor' ? 'family_contributor' : 'family_viewer';
}

/**
 * A membership's role over the library of a co-member. Only in the group that co-member created does an
 * invitee's role count (an invitee role, or a campaign_owner membership, which acts as contributor there);
 * everywhere else, and for the group's creator over an invitee's library, it is sight only.
 */
export function contentRoleOf(memberRole: string, inContentOwnersGroup: boolean): ContentRole {
  if (!inContentOwnersGroup || memberRole === 'family_viewer' || memberRole === 'owner') return 'family_viewer';
  return 'family_contributor';
}

/**
 * Creator-only resources (a campaign's settings and its create flow): anyone else, family included, gets
 * the same 404 as a stranger, so the resource's existence does not leak.
 */
export function requireCreator(callerId: string, ownerId: string | null | undefined, what: string): void {
  if (!ownerId || callerId !== ownerId) throw notFound(what);
}

function refuse(role: ContentRole, permission: Permission): AppError {
  return new AppError('forbidden', `Your role in this family (${role.replace('_', ' ')}) does not allow this`, { details: `needs the ${permission} permission` });
}

export function createAccessPolicy({ sql }: { sql: Sql }): AccessPolicy {
  const repo = createAccessRepository(sql);

  async function roleFor(callerId: string, ownerId: string): Promise<ContentRole | null> {
    if (callerId === ownerId) return 'campaign_owner';
    // Both must be active members of one group. In a group the content owner created, the caller holds the
    // role their invitation granted; in any other shared group, only sight. The strongest row wins.
    const rows = await repo.sharedMemberships(callerId, ownerId);
    let best: ContentRole | null = null;
    for (const row of rows) {
      const mapped = contentRoleOf(row.role, row.ownersGroup);
      if (!best || RANK[mapped] > RANK[best]) best = mapped;
    }
    return best;
  }

  async function groupRoleFor(callerId: string, groupId: string): Promise<ContentRole | null> {
    // A malformed id is simply not a group the caller belongs to (404, not a database error).
    if (!isUuid(groupId)) return null;
    const role = await repo.activeRoleInGroup(callerId, groupId);
    return role ? groupRoleOf(role) : null;
  }

  return {
    roleFor,
    async visibleOwners(callerId) {
      return [callerId, ...(await repo.coMembers(callerId))];
    },
    async require(callerId, ownerId, permission, what, opts) {
      const role = await roleFor(callerId, ownerId);
      if (!role) throw notFound(what);
      if (!permits(role, permission, opts)) throw refuse(role, permission);
      return role;
    },
    groupRoleFor,
    async requireGroup(callerId, groupId, permission, opts) {
      const role = await groupRoleFor(callerId, groupId);
      if (!role) throw notFound('Family group');
      if (!permits(role, permission, opts)) throw refuse(role, permission);
      return role;
    },
  };
}
