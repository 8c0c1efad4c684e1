// Family invitations (CONTRACTS §6). The token is 256 random bits, shown once (in the invite URL and the
// email) and stored only as its sha256, so a database leak does not leak working links. Invitations last
// 7 days; resending rotates the token (the old link stops working) and restarts the 7 days.
//
// Decisions the spec leaves open:
// - Accept and reject need the signed-in account's email to equal the invited address (403 otherwise):
//   the invitation is for that person, and a forwarded link must not let someone else in.
// - The family-members allowance is the GROUP OWNER's tier; it counts active members other than the owner
//   plus pending invitations, so inviting cannot outrun the allowance and accept never fails on it.
// - 5 invitations per hour per inviter (spec Limits), counted in the database (creations plus resends of
//   the last hour) so the limit covers every route that invites, including the campaign create flow, and
//   holds across replicas. It is scaled by RATE_LIMIT_SCALE like every other limit.
// - Inviting an address that already has a pending invitation to the group resends it instead of
//   creating a duplicate; inviting an active member is a 409.
// - An expired or already used token is refused (410 expired, 409 already used) and nothing is written.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { familyGroups, familyInvitations, familyMembers, one, type Database, type DbOrTx, type InvitationRole, type InvitationStatus } from '@story/db';
import { triggerFamilyInvitation } from '@story/email';
import { AppError, conflict, countedLimit, forbidden, notFound } from '@story/http';
import type { Sql } from 'postgres';
import type { AccessPolicy } from '../access/access.policy';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';
import { recordEvent } from '../timeline/timeline.service';

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

type InvitationRow = typeof familyInvitations.$inferSelect;

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** pending past its expiry reads as expired, without a write. */
const effectiveStatus = (row: Pick<InvitationRow, 'status' | 'expiresAt'>): InvitationStatus =>
  row.status === 'pending' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;

/** j***@example.com: enough for the invitee to recognise the address, not enough to harvest it. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export interface InvitationsDeps {
  db: Database;
  sql: Sql;
  access: Pick<AccessPolicy, 'requireGroup'>;
  appUrl: string;
  /** RATE_LIMIT_SCALE: multiplies the hourly invitation limit (load tests and ordinary tests raise it). */
  rateScale: number;
}

export function createInvitationsService({ db, sql: pg, access, appUrl, rateScale }: InvitationsDeps) {
  const rate = countedLimit('core.invites', rateScale);
  const inviteUrl = (token: string) => `${appUrl.replace(/\/+$/, '')}/invite/${token}`;

  const view = (row: InvitationRow, token: string): InvitationView => ({
    id: row.id,
    email: row.email,
    role: row.role,
    status: effectiveStatus(row),
    expiresAt: row.expiresAt.toISOString(),
    inviteUrl: inviteUrl(token),
  });

  async function inviterName(tx: DbOrTx, userId: string): Promise<string> {
    const rows = await tx.execute<{ name: string }>(sql`
      select coalesce(nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1)) as name
        from accounts a left join profiles p on p.id = a.id where a.id = ${userId}`);
    return rows[0]?.name ?? 'A relative';
  }

  async function queueEmail(tx: DbOrTx, callerId: string, group: { id: string; name: string }, row: InvitationRow, token: string): Promise<void> {
    await triggerFamilyInvitation(tx, callerId, {
      family_id: group.id,
      family_name: group.name,
      inviter_name: await inviterName(tx, callerId),
      invitation_token: token,
      invitation_url: inviteUrl(token),
      to_email: row.email,
      role: row.role === 'family_contributor' ? 'contributor' : 'viewer',
      ...(row.message ? { message: row.message } : {}),
      // One email per send: a retried request inside the same send does not email twice.
      idempotency_key: `invite:${row.id}:${row.resentCount}`,
    });
  }

  async function assertRate(tx: DbOrTx, callerId: string): Promise<void> {
    const rows = await tx.execute<{ n: number }>(sql`
      select (count(*) filter (where created_at > now() - interval '1 hour')
            + count(*) filter (where resent_count > 0 and last_sent_at > now() - interval '1 hour'))::int as n
        from family_invitations where invited_by = ${callerId}`);
    rate.assert(rows[0]?.n ?? 0, 3600);
  }

  /** Locks the group row: invitations to one group (and their allowance count) run one at a time. */
  async function lockGroup(tx: DbOrTx, groupId: string) {
    const [group] = await tx.select({ id: familyGroups.id, name: familyGroups.name, createdBy: familyGroups.createdBy }).from(familyGroups).where(eq(familyGroups.id, groupId)).for('update');
    if (!group) throw notFound('Family group');
    return group;
  }

  /** Seats taken against the owner's family-members allowance: members other than the owner, plus open invitations. */
  async function seatsUsed(tx: DbOrTx, groupId: string): Promise<number> {
    const rows = await tx.execute<{ n: number }>(sql`
      select ((select count(*) from family_members where family_group_id = ${groupId} and status = 'active' and role <> 'owner')
            + (select count(*) from family_invitations where family_group_id = ${groupId} and status = 'pending' and expires_at > now()))::int as n`);
    return rows[0]?.n ?? 0;
  }

  /** Rotate the token of a pending invitation and email it again. */
  async function resendRow(tx: DbOrTx, callerId: string, group: { id: string; name: string }, row: InvitationRow): Promise<InvitationView> {
    const token = newToken();
    const updated = one(
      await tx
        .update(familyInvitations)
        .set({
          tokenHash: hashInvitationToken(token),
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
          resentCount: sql`${familyInvitations.resentCount} + 1`,
          lastSentAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(familyInvitations.id, row.id))
        .returning(),
    );
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

    const members = await tx.execute<{ id: string }>(sql`
      select fm.id from family_members fm left join accounts a on a.id = fm.user_id
       where fm.family_group_id = ${group.id} and fm.status = 'active' and (lower(a.email) = ${email} or lower(fm.email) = ${email})
       limit 1`);
    if (members.length) throw conflict(`${email} is already a member of this family`, { field: 'email' });

    await assertRate(tx, callerId);

    const [open] = await tx
      .select()
      .from(familyInvitations)
      .where(and(eq(familyInvitations.familyGroupId, group.id), eq(familyInvitations.email, email), eq(familyInvitations.status, 'pending')))
      .for('update');
    if (open && open.expiresAt.getTime() > Date.now()) {
      return { invitation: await resendRow(tx, callerId, group, open), resent: true };
    }

    const tier = await lockTier(tx, group.createdBy);
    assertAllowance(tier, 'familyMembers', await seatsUsed(tx, group.id), 1);

    // A lapsed pending invitation makes way for the new one (one open invitation per address).
    if (open) await tx.update(familyInvitations).set({ status: 'expired', closedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyInvitations.id, open.id));

    const token = newToken();
    const row = one(
      await tx
        .insert(familyInvitations)
        .values({
          familyGroupId: group.id,
          invitedBy: callerId,
          email,
          role: input.role,
          relationship: input.relationship ?? null,
          message: input.message ?? null,
          tokenHash: hashInvitationToken(token),
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
          lastSentAt: new Date(),
        })
        .returning(),
    );
    await queueEmail(tx, callerId, group, row, token);
    return { invitation: view(row, token), resent: false };
  }

  /** The invitation behind a token, locked for the rest of the transaction. */
  async function byToken(tx: DbOrTx, token: string): Promise<InvitationRow> {
    const [row] = await tx.select().from(familyInvitations).where(eq(familyInvitations.tokenHash, hashInvitationToken(token))).for('update');
    if (!row) throw notFound('Invitation');
    return row;
  }

  /** Only a pending, unexpired invitation for the caller's own address may be answered. */
  function assertAnswerable(row: InvitationRow, callerEmail: string): void {
    const status = effectiveStatus(row);
    if (status === 'expired') throw new AppError('gone', 'This invitation has expired. Ask for a new one.', { code: 'invitation_expired' });
    if (status !== 'pending') throw conflict(`This invitation was already ${status}`, { code: `invitation_${status}` });
    if (normalizeEmail(callerEmail) !== row.email) {
      throw forbidden('This invitation was sent to a different email address. Sign in with the invited address to answer it.', { code: 'invitation_email_mismatch' });
    }
  }

  async function groupSummary(groupId: string) {
    const [g] = await pg<{ id: string; name: string; description: string | null; member_count: number }[]>`
      select g.id, g.name, g.description,
             (select count(*)::int from family_members m where m.family_group_id = g.id and m.status = 'active') as member_count
        from family_groups g where g.id = ${groupId}`;
    return g ? { id: g.id, name: g.name, description: g.description, memberCount: g.member_count } : null;
  }

  async function inviterOf(userId: string | null): Promise<{ name: string | null }> {
    if (!userId) return { name: null };
    return { name: await inviterName(db, userId) };
  }

  return {
    createInTx,

    async create(callerId: string, input: CreateInvitationInput): Promise<{ invitation: InvitationView; resent: boolean }> {
      await access.requireGroup(callerId, input.familyGroupId, 'invite_family');
      return db.transaction((tx) => createInTx(tx, callerId, input));
    },

    async list(callerId: string, groupId: string, status?: InvitationStatus): Promise<InvitationListItem[]> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      const rows = await db.select().from(familyInvitations).where(eq(familyInvitations.familyGroupId, groupId)).orderBy(sql`${familyInvitations.createdAt} desc`);
      return rows
        .map((r) => ({ r, status: effectiveStatus(r) }))
        .filter((x) => !status || x.status === status)
        .map(({ r, status: s }) => ({
          id: r.id,
          email: r.email,
          role: r.role,
          status: s,
          relationship: r.relationship,
          message: r.message,
          expiresAt: r.expiresAt.toISOString(),
          createdAt: r.createdAt.toISOString(),
          resentCount: r.resentCount,
          lastSentAt: r.lastSentAt?.toISOString() ?? null,
        }));
    },

    async cancel(callerId: string, groupId: string, invitationId: string): Promise<{ id: string; status: InvitationStatus }> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(familyInvitations).where(and(eq(familyInvitations.id, invitationId), eq(familyInvitations.familyGroupId, groupId))).for('update');
        if (!row) throw notFound('Invitation');
        if (row.status !== 'pending') throw conflict(`This invitation was already ${row.status}`, { code: `invitation_${row.status}` });
        await tx.update(familyInvitations).set({ status: 'cancelled', closedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyInvitations.id, row.id));
        return { id: row.id, status: 'cancelled' as const };
      });
    },

    async resend(callerId: string, groupId: string, invitationId: string): Promise<InvitationView> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      return db.transaction(async (tx) => {
        const group = await lockGroup(tx, groupId);
        const [row] = await tx.select().from(familyInvitations).where(and(eq(familyInvitations.id, invitationId), eq(familyInvitations.familyGroupId, groupId))).for('update');
        if (!row) throw notFound('Invitation');
        if (row.status !== 'pending') throw conflict(`Only a pending invitation can be resent; this one was ${row.status}`, { code: `invitation_${row.status}` });
        await assertRate(tx, callerId);
        // A lapsed invitation is revived by the resend: its seat must still fit the allowance.
        if (row.expiresAt.getTime() <= Date.now()) assertAllowance(await lockTier(tx, group.createdBy), 'familyMembers', await seatsUsed(tx, groupId), 1);
        return resendRow(tx, callerId, group, row);
      });
    },

    /** Before sign-in: just enough to decide whether to sign up (no id, the address masked). */
    async preview(token: string) {
      const [row] = await db.select().from(familyInvitations).where(eq(familyInvitations.tokenHash, hashInvitationToken(token)));
      if (!row) throw notFound('Invitation');
      const group = await groupSummary(row.familyGroupId);
      return {
        invitation: {
          status: effectiveStatus(row),
          role: row.role,
          expiresAt: row.expiresAt.toISOString(),
          emailHint: maskEmail(row.email),
          familyName: group?.name ?? '',
          inviterName: (await inviterOf(row.invitedBy)).name,
          message: row.message,
        },
      };
    },

    /** Signed in: the whole invitation, and whether this account may answer it. */
    async details(callerEmail: string, token: string) {
      const [row] = await db.select().from(familyInvitations).where(eq(familyInvitations.tokenHash, hashInvitationToken(token)));
      if (!row) throw notFound('Invitation');
      const group = await groupSummary(row.familyGroupId);
      const status = effectiveStatus(row);
      const emailMatches = normalizeEmail(callerEmail) === row.email;
      return {
        invitation: {
          id: row.id,
          email: row.email,
          role: row.role,
          status,
          relationship: row.relationship,
          message: row.message,
          expiresAt: row.expiresAt.toISOString(),
          family: group ?? { id: row.familyGroupId, name: '', description: null, memberCount: 0 },
          invitedBy: await inviterOf(row.invitedBy),
        },
        emailMatches,
        canAccept: status === 'pending' && emailMatches,
      };
    },

    async accept(callerId: string, callerEmail: string, token: string) {
      return db.transaction(async (tx) => {
        const row = await byToken(tx, token);
        assertAnswerable(row, callerEmail);
        // Re-joining after removal reuses the membership row (one row per account per group).
        const member = one(
          await tx
            .insert(familyMembers)
            .values({ familyGroupId: row.familyGroupId, userId: callerId, role: row.role, relationship: row.relationship, email: row.email, status: 'active' })
            .onConflictDoUpdate({
              target: [familyMembers.familyGroupId, familyMembers.userId],
              set: {
                role: row.role,
                status: 'active',
                removedAt: null,
                relationship: sql`coalesce(${row.relationship}, ${familyMembers.relationship})`,
                joinedAt: sql`now()`,
                updatedAt: sql`now()`,
              },
            })
            .returning({ id: familyMembers.id, role: familyMembers.role }),
        );
        await tx
          .update(familyInvitations)
          .set({ status: 'accepted', acceptedBy: callerId, acceptedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(familyInvitations.id, row.id));
        await recordEvent(tx, {
          familyGroupId: row.familyGroupId,
          actorId: callerId,
          eventType: 'member_joined',
          subjectType: 'member',
          subjectId: member.id,
          title: `${await inviterName(tx, callerId)} joined the family`,
          data: { role: member.role },
        });
        return { success: true as const, familyGroupId: row.familyGroupId, member: { id: member.id, role: member.role }, welcomeUrl: `/api/family/welcome/${token}` };
      });
    },

    async reject(callerEmail: string, token: string) {
      return db.transaction(async (tx) => {
        const row = await byToken(tx, token);
        assertAnswerable(row, callerEmail);
        await tx.update(familyInvitations).set({ status: 'rejected', closedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyInvitations.id, row.id));
        return { success: true as const, status: 'rejected' as const };
      });
    },

    /** After accepting: the family the caller just joined. Only the account that accepted sees it. */
    async welcome(callerId: string, token: string) {
      const [row] = await db.select().from(familyInvitations).where(eq(familyInvitations.tokenHash, hashInvitationToken(token)));
      if (!row || row.status !== 'accepted' || row.acceptedBy !== callerId) throw notFound('Invitation');
      // Still a member? A removed member's welcome page is gone with the access.
      const [me] = await pg<{ role: string }[]>`select role from family_members where family_group_id = ${row.familyGroupId} and user_id = ${callerId} and status = 'active'`;
      if (!me) throw notFound('Invitation');
      const group = await groupSummary(row.familyGroupId);
      if (!group) throw notFound('Invitation');
      const members = await pg<{ name: string; role: string }[]>`
        select coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1), 'Family member') as name, m.role
          from family_members m left join profiles p on p.id = m.user_id left join accounts a on a.id = m.user_id
         where m.family_group_id = ${row.familyGroupId} and m.status = 'active'
         order by m.joined_at limit 50`;
      return {
        family: group,
        role: me.role,
        invitedBy: await inviterOf(row.invitedBy),
        members: members.map((m) => ({ name: m.name, role: m.role })),
      };
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
