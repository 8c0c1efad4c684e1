// Test factories for family groups, members, invitations, memories and timeline events (CONVENTIONS 12):
// each inserts rows directly and returns them, so tests set up a family in a few statements.
import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';

export type MemberRole = 'owner' | 'campaign_owner' | 'family_contributor' | 'family_viewer';

export interface GroupRow {
  id: string;
  name: string;
  ownerMemberId: string;
}

/** A family group created by `ownerId`, with the owner's own membership row (role owner), as the service does. */
export async function newFamilyGroup(sql: Sql, { ownerId, name = 'The Testers', description = null }: { ownerId: string; name?: string; description?: string | null }): Promise<GroupRow> {
  const [group] = await sql<{ id: string }[]>`
    insert into family_groups (created_by, name, description) values (${ownerId}, ${name}, ${description}) returning id`;
  const [member] = await sql<{ id: string }[]>`
    insert into family_members (family_group_id, user_id, role, display_name) values (${group!.id}, ${ownerId}, 'owner', 'Owner') returning id`;
  return { id: group!.id, name, ownerMemberId: member!.id };
}

/** A membership row: an account (userId) or a placeholder (displayName only); removed sets removed_at too. */
export async function addMember(
  sql: Sql,
  { groupId, userId = null, role = 'family_viewer', status = 'active', displayName = null, email = null, relationship = null }: {
    groupId: string;
    userId?: string | null;
    role?: MemberRole;
    status?: 'active' | 'removed';
    displayName?: string | null;
    email?: string | null;
    relationship?: string | null;
  },
): Promise<{ id: string }> {
  const [row] = await sql<{ id: string }[]>`
    insert into family_members (family_group_id, user_id, role, status, removed_at, display_name, email, relationship)
    values (${groupId}, ${userId}, ${role}, ${status}, ${status === 'removed' ? sql`now()` : null}, ${displayName ?? (userId ? null : 'Placeholder')}, ${email}, ${relationship})
    returning id`;
  return row!;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A pending (or other status) invitation; returns its row id and the raw token the email would carry. */
export async function newInvitation(
  sql: Sql,
  { groupId, invitedBy, email, role = 'family_viewer', status = 'pending', expiresInMs = 7 * 24 * 3600_000 }: {
    groupId: string;
    invitedBy: string;
    email: string;
    role?: 'family_contributor' | 'family_viewer';
    status?: 'pending' | 'accepted' | 'rejected' | 'cancelled' | 'expired';
    expiresInMs?: number;
  },
): Promise<{ id: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + expiresInMs);
  const [row] = await sql<{ id: string }[]>`
    insert into family_invitations (family_group_id, invited_by, email, role, token_hash, status, expires_at, last_sent_at)
    values (${groupId}, ${invitedBy}, ${email.toLowerCase()}, ${role}, ${hashToken(token)}, ${status}, ${expiresAt.toISOString()}, now())
    returning id`;
  return { id: row!.id, token };
}

export async function newFamilyMemory(sql: Sql, { groupId, createdBy, title = 'Summer at the lake' }: { groupId: string; createdBy: string; title?: string }): Promise<{ id: string }> {
  const [row] = await sql<{ id: string }[]>`
    insert into family_memories (family_group_id, created_by, title, content) values (${groupId}, ${createdBy}, ${title}, 'We swam every morning.') returning id`;
  return row!;
}

export async function newTimelineEvent(
  sql: Sql,
  { groupId, actorId, eventType = 'memory_added', title = 'A memory was added' }: { groupId: string | null; actorId: string; eventType?: string; title?: string },
): Promise<{ id: string }> {
  const [row] = await sql<{ id: string }[]>`
    insert into timeline_events (family_group_id, actor_id, event_type, title) values (${groupId}, ${actorId}, ${eventType}, ${title}) returning id`;
  return row!;
}

/** Set an account's subscription tier (profiles row made by signup). */
export async function setTier(sql: Sql, userId: string, tier: 'free' | 'starter' | 'family' | 'premium'): Promise<void> {
  await sql`update profiles set subscription_tier = ${tier} where id = ${userId}`;
}

/** Row count of a table, optionally filtered by one column (for "nothing written" assertions). */
export async function countRows(sql: Sql, table: string, where?: { column: string; value: string }): Promise<number> {
  const [row] = where
    ? await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)} where ${sql(where.column)} = ${where.value}`
    : await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)}`;
  return row!.n;
}
