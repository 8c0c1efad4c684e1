// Family groups, members, relationships, shared memories, media, story prompts and the leaderboard
// (spec 000 Family). Every call with a group id asks the policy module first (requireGroup): a caller who
// is not an active member gets 404, a role without the permission 403. What each role may do:
//   read anything in the group ................ every active member (view_stories)
//   add a memory or a relationship ............ contributor and owner (upload_photos / create_stories)
//   edit or delete a memory ................... its author (edit_own_stories) or the owner (edit_stories)
//   add a placeholder member, invite .......... the owner (invite_family)
//   change roles, remove, merge members ....... the owner (manage_settings); anyone may edit their own
//                                               name and relationship, or leave the group
import { and, eq, inArray, sql } from 'drizzle-orm';
import { familyGroups, familyMemories, familyMembers, familyRelationships, images, one, type Database, type DbOrTx, type FamilyMemoryMedia } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import type { PendingQuery, Row, Sql } from 'postgres';
import type { AccessPolicy } from '../access/access.policy';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';
import { recordEvent, toIso } from '../timeline/timeline.service';

export interface GroupView {
  id: string;
  name: string;
  description: string | null;
  member_count: number;
  role: string;
}

export interface MemberView {
  id: string;
  userId: string | null;
  displayName: string;
  email: string | null;
  role: string;
  relationship: string | null;
  status: string;
  avatarUrl: string | null;
  isPlaceholder: boolean;
  joinedAt: string;
  removedAt: string | null;
  mergedIntoId: string | null;
}

export interface MemoryView {
  id: string;
  familyGroupId: string;
  createdBy: string | null;
  authorName: string | null;
  title: string;
  content: string | null;
  memoryDate: string | null;
  tags: string[];
  media: { imageId: string | null; mimeType: string; caption: string | null }[];
  createdAt: string;
  updatedAt: string;
}

interface MemberRow {
  id: string;
  user_id: string | null;
  display_name: string;
  email: string | null;
  role: string;
  relationship: string | null;
  status: string;
  avatar_url: string | null;
  joined_at: Date | string;
  removed_at: Date | string | null;
  merged_into_id: string | null;
}

const toMember = (r: MemberRow): MemberView => ({
  id: r.id,
  userId: r.user_id,
  displayName: r.display_name,
  email: r.email,
  role: r.role,
  relationship: r.relationship,
  status: r.status,
  avatarUrl: r.avatar_url,
  isPlaceholder: r.user_id === null,
  joinedAt: toIso(r.joined_at),
  removedAt: r.removed_at ? toIso(r.removed_at) : null,
  mergedIntoId: r.merged_into_id,
});

/** Offered when the prompt library has nothing published yet, so a new family is never shown an empty list. */
const STARTER_PROMPTS: readonly { prompt: string; category: string }[] = [
  { prompt: 'What is your earliest memory?', category: 'childhood' },
  { prompt: 'Describe the house you grew up in.', category: 'childhood' },
  { prompt: 'How did you meet the love of your life?', category: 'love' },
  { prompt: 'What was your first job, and what did it teach you?', category: 'work' },
  { prompt: 'Which family tradition do you hope never disappears?', category: 'family' },
  { prompt: 'What is the bravest thing you have ever done?', category: 'life_lessons' },
  { prompt: 'Tell the story behind a photograph you treasure.', category: 'family' },
  { prompt: 'What advice would you give your younger self?', category: 'life_lessons' },
];

export function createFamilyService({ db, sql: pg, access }: { db: Database; sql: Sql; access: Pick<AccessPolicy, 'requireGroup'> }) {
  // Name shown for a member: the group's own label first, then the account's profile, then the address.
  const memberSelect = (where: PendingQuery<Row[]>) => pg<MemberRow[]>`
    select m.id, m.user_id,
           coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1), 'Family member') as display_name,
           coalesce(m.email, a.email) as email, m.role, m.relationship, m.status, coalesce(m.avatar_url, p.avatar_url) as avatar_url,
           m.joined_at, m.removed_at, m.merged_into_id
      from family_members m
      left join accounts a on a.id = m.user_id
      left join profiles p on p.id = m.user_id
     where ${where}
     order by m.joined_at, m.id`;

  async function memberOf(groupId: string, memberId: string): Promise<MemberRow> {
    const [row] = await memberSelect(pg`m.family_group_id = ${groupId} and m.id = ${memberId}`);
    if (!row) throw notFound('Family member');
    return row;
  }

  async function groupView(callerId: string, groupId: string): Promise<GroupView & { settings: Record<string, unknown>; createdBy: string; createdAt: string }> {
    const [g] = await pg<{ id: string; name: string; description: string | null; settings: Record<string, unknown>; created_by: string; created_at: Date | string; member_count: number; role: string }[]>`
      select g.id, g.name, g.description, g.settings, g.created_by, g.created_at, me.role,
             (select count(*)::int from family_members m where m.family_group_id = g.id and m.status = 'active') as member_count
        from family_groups g
        join family_members me on me.family_group_id = g.id and me.user_id = ${callerId} and me.status = 'active'
       where g.id = ${groupId}`;
    if (!g) throw notFound('Family group');
    return { id: g.id, name: g.name, description: g.description, member_count: g.member_count, role: g.role, settings: g.settings, createdBy: g.created_by, createdAt: toIso(g.created_at) };
  }

  async function memoryView(groupId: string, memoryId: string): Promise<MemoryView> {
    const [m] = await pg<{ id: string; family_group_id: string; created_by: string | null; author_name: string | null; title: string; content: string | null; memory_date: string | null; tags: string[]; media: FamilyMemoryMedia[]; created_at: Date | string; updated_at: Date | string }[]>`
      select f.id, f.family_group_id, f.created_by, coalesce(nullif(p.display_name, ''), p.full_name) as author_name, f.title, f.content,
             f.memory_date::text as memory_date, f.tags, f.media, f.created_at, f.updated_at
        from family_memories f left join profiles p on p.id = f.created_by
       where f.family_group_id = ${groupId} and f.id = ${memoryId}`;
    if (!m) throw notFound('Memory');
    return toMemory(m);
  }

  const toMemory = (m: { id: string; family_group_id: string; created_by: string | null; author_name: string | null; title: string; content: string | null; memory_date: string | null; tags: string[]; media: FamilyMemoryMedia[]; created_at: Date | string; updated_at: Date | string }): MemoryView => ({
    id: m.id,
    familyGroupId: m.family_group_id,
    createdBy: m.created_by,
    authorName: m.author_name,
    title: m.title,
    content: m.content,
    memoryDate: m.memory_date,
    tags: m.tags,
    media: (m.media ?? []).map((x) => ({ imageId: x.imageId ?? null, mimeType: x.mimeType, caption: x.caption ?? null })),
    createdAt: toIso(m.created_at),
    updatedAt: toIso(m.updated_at),
  });

  /** The caller's own images, turned into memory media; someone else's image id is a 400, never attached. */
  async function ownMedia(tx: DbOrTx, callerId: string, items: { imageId: string; caption?: string }[]): Promise<FamilyMemoryMedia[]> {
    if (!items.length) return [];
    const ids = [...new Set(items.map((i) => i.imageId))];
    const rows = await tx.select({ id: images.id, storageKey: images.storageKey, mimeType: images.mimeType }).from(images).where(and(inArray(images.id, ids), eq(images.userId, callerId)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return items.map((i, n) => {
      const img = byId.get(i.imageId);
      if (!img) throw badRequest(`Invalid media.${n}.imageId: not one of your images`, { field: `media.${n}.imageId` });
      return { imageId: img.id, storageKey: img.storageKey, mimeType: img.mimeType, ...(i.caption ? { caption: i.caption } : {}) };
    });
  }

  async function activeMemberOrThrow(tx: DbOrTx, groupId: string, memberId: string, field: string) {
    const [m] = await tx.select({ id: familyMembers.id, userId: familyMembers.userId, status: familyMembers.status, role: familyMembers.role }).from(familyMembers).where(and(eq(familyMembers.id, memberId), eq(familyMembers.familyGroupId, groupId)));
    if (!m || m.status !== 'active') throw badRequest(`Invalid ${field}: not an active member of this family`, { field });
    return m;
  }

  async function getMemory(callerId: string, groupId: string, memoryId: string): Promise<MemoryView> {
    await access.requireGroup(callerId, groupId, 'view_stories');
    return memoryView(groupId, memoryId);
  }

  return {
    // ---- groups ----
    async listGroups(callerId: string): Promise<GroupView[]> {
      const rows = await pg<{ id: string; name: string; description: string | null; member_count: number; role: string }[]>`
        select g.id, g.name, g.description, me.role,
               (select count(*)::int from family_members m where m.family_group_id = g.id and m.status = 'active') as member_count
          from family_members me join family_groups g on g.id = me.family_group_id
         where me.user_id = ${callerId} and me.status = 'active'
         order by g.created_at desc, g.id`;
      return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, member_count: r.member_count, role: r.role }));
    },

    /** The creator becomes the group's owner member in the same transaction (access needs that row). */
    async createGroup(callerId: string, input: { name: string; description?: string | null; settings?: Record<string, unknown> }) {
      const id = await db.transaction((tx) => createGroupInTx(tx, callerId, input));
      return groupView(callerId, id);
    },

    async getGroup(callerId: string, groupId: string) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return groupView(callerId, groupId);
    },

    // ---- members ----
    async listAllMembers(callerId: string, groupId?: string): Promise<(MemberView & { familyGroupId: string })[]> {
      if (groupId) await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await pg<(MemberRow & { family_group_id: string })[]>`
        select m.family_group_id, m.id, m.user_id,
               coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1), 'Family member') as display_name,
               coalesce(m.email, a.email) as email, m.role, m.relationship, m.status, coalesce(m.avatar_url, p.avatar_url) as avatar_url,
               m.joined_at, m.removed_at, m.merged_into_id
          from family_members m
          join family_members me on me.family_group_id = m.family_group_id and me.user_id = ${callerId} and me.status = 'active'
          left join accounts a on a.id = m.user_id
          left join profiles p on p.id = m.user_id
         where m.status = 'active' ${groupId ? pg`and m.family_group_id = ${groupId}` : pg``}
         order by m.family_group_id, m.joined_at, m.id`;
      return rows.map((r) => ({ ...toMember(r), familyGroupId: r.family_group_id }));
    },

    async listMembers(callerId: string, groupId: string, status: 'active' | 'removed' | 'all' = 'active'): Promise<MemberView[]> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await memberSelect(status === 'all' ? pg`m.family_group_id = ${groupId}` : pg`m.family_group_id = ${groupId} and m.status = ${status}`);
      return rows.map(toMember);
    },

    async getMember(callerId: string, groupId: string, memberId: string): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return toMember(await memberOf(groupId, memberId));
    },

    /** A placeholder member (a relative without an account, e.g. the storyteller); merge links an account later. */
    async addPlaceholder(callerId: string, groupId: string, input: { displayName: string; relationship?: string | null; email?: string | null }): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'invite_family');
      const id = await db.transaction(async (tx) => {
        const [group] = await tx.select({ createdBy: familyGroups.createdBy }).from(familyGroups).where(eq(familyGroups.id, groupId)).for('update');
        if (!group) throw notFound('Family group');
        const used = await tx.execute<{ n: number }>(sql`
          select ((select count(*) from family_members where family_group_id = ${groupId} and status = 'active' and role <> 'owner')
                + (select count(*) from family_invitations where family_group_id = ${groupId} and status = 'pending' and expires_at > now()))::int as n`);
        assertAllowance(await lockTier(tx, group.createdBy), 'familyMembers', used[0]?.n ?? 0, 1);
        const row = one(
          await tx
            .insert(familyMembers)
            .values({ familyGroupId: groupId, userId: null, role: 'family_viewer', displayName: input.displayName, relationship: input.relationship ?? null, email: input.email?.toLowerCase() ?? null })
            .returning({ id: familyMembers.id }),
        );
        return row.id;
      });
      return toMember(await memberOf(groupId, id));
    },

    async updateMember(callerId: string, groupId: string, memberId: string, input: { role?: 'family_contributor' | 'family_viewer'; relationship?: string | null; displayName?: string | null }): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const target = await memberOf(groupId, memberId);
      const isSelf = target.user_id === callerId;
      // Changing a role is the owner's; anyone may correct their own name and relationship.
      if (input.role !== undefined || !isSelf) await access.requireGroup(callerId, groupId, 'manage_settings');
      if (target.status !== 'active') throw conflict('This member was removed from the family', { code: 'member_removed' });
      if (input.role !== undefined && target.role === 'owner') throw conflict("The group owner's role cannot change", { field: 'role' });
      // null clears the name only where an account still names the member (the identity CHECK constraint).
      if (input.displayName === null && !target.user_id) {
        throw badRequest('Invalid displayName: a member without an account needs a name, so it cannot be cleared', { field: 'displayName' });
      }
      await db
        .update(familyMembers)
        .set({
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.relationship !== undefined ? { relationship: input.relationship } : {}),
          ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(familyMembers.id, memberId));
      return toMember(await memberOf(groupId, memberId));
    },

    /** Soft removal: access checks read status, so the member loses access with this statement. */
    async removeMember(callerId: string, groupId: string, memberId: string): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const target = await memberOf(groupId, memberId);
      if (target.user_id !== callerId) await access.requireGroup(callerId, groupId, 'manage_settings');
      if (target.role === 'owner') throw conflict('The group owner cannot be removed', { code: 'owner_not_removable' });
      if (target.status !== 'active') throw conflict('This member was already removed', { code: 'member_removed' });
      await db.update(familyMembers).set({ status: 'removed', removedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(familyMembers.id, memberId));
      return toMember(await memberOf(groupId, memberId));
    },

    /**
     * Merge a placeholder member into a member with an account: the placeholder is retired (removed,
     * merged_into_id set), its relationship edges move to the real member, and the real member keeps its
     * own name and relationship unless it had none.
     */
    async mergeMember(callerId: string, groupId: string, memberId: string, intoMemberId: string): Promise<MemberView> {
      await access.requireGroup(callerId, groupId, 'manage_settings');
      if (memberId === intoMemberId) throw badRequest('Invalid intoMemberId: a member cannot be merged into itself', { field: 'intoMemberId' });
      await db.transaction(async (tx) => {
        const rows = await tx.select().from(familyMembers).where(and(eq(familyMembers.familyGroupId, groupId), inArray(familyMembers.id, [memberId, intoMemberId]))).for('update');
        const source = rows.find((r) => r.id === memberId);
        const target = rows.find((r) => r.id === intoMemberId);
        if (!source) throw notFound('Family member');
        if (!target) throw badRequest('Invalid intoMemberId: not a member of this family', { field: 'intoMemberId' });
        if (source.userId !== null) throw badRequest('Only a placeholder member (one without an account) can be merged into another', { field: 'memberId' });
        if (source.status !== 'active') throw conflict('This placeholder was already merged or removed', { code: 'member_removed' });
        if (target.userId === null || target.status !== 'active') throw badRequest('Invalid intoMemberId: must be an active member with an account', { field: 'intoMemberId' });
        // Edges: move each to the real member unless it would duplicate one it already has or point at itself.
        await tx.execute(sql`
          delete from family_relationships r
           where (r.from_member_id = ${memberId} and (r.to_member_id = ${intoMemberId} or exists (
                    select 1 from family_relationships d where d.from_member_id = ${intoMemberId} and d.to_member_id = r.to_member_id and d.relationship_type = r.relationship_type)))
              or (r.to_member_id = ${memberId} and (r.from_member_id = ${intoMemberId} or exists (
                    select 1 from family_relationships d where d.to_member_id = ${intoMemberId} and d.from_member_id = r.from_member_id and d.relationship_type = r.relationship_type)))`);
        await tx.update(familyRelationships).set({ fromMemberId: intoMemberId }).where(eq(familyRelationships.fromMemberId, memberId));
        await tx.update(familyRelationships).set({ toMemberId: intoMemberId }).where(eq(familyRelationships.toMemberId, memberId));
        await tx
          .update(familyMembers)
          .set({
            relationship: target.relationship ?? source.relationship,
            displayName: target.displayName ?? source.displayName,
            email: target.email ?? source.email,
            updatedAt: sql`now()`,
          })
          .where(eq(familyMembers.id, intoMemberId));
        await tx.update(familyMembers).set({ status: 'removed', removedAt: sql`now()`, mergedIntoId: intoMemberId, updatedAt: sql`now()` }).where(eq(familyMembers.id, memberId));
      });
      return toMember(await memberOf(groupId, intoMemberId));
    },

    // ---- relationships ----
    async listRelationships(callerId: string, groupId: string) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await db.select().from(familyRelationships).where(eq(familyRelationships.familyGroupId, groupId)).orderBy(familyRelationships.createdAt);
      return rows.map((r) => ({ id: r.id, fromMemberId: r.fromMemberId, toMemberId: r.toMemberId, relationshipType: r.relationshipType, createdBy: r.createdBy, createdAt: r.createdAt.toISOString() }));
    },

    async addRelationship(callerId: string, groupId: string, input: { fromMemberId: string; toMemberId: string; relationshipType: string }) {
      await access.requireGroup(callerId, groupId, 'create_stories');
      if (input.fromMemberId === input.toMemberId) throw badRequest('Invalid toMemberId: a relationship needs two different members', { field: 'toMemberId' });
      const row = await db.transaction(async (tx) => {
        await activeMemberOrThrow(tx, groupId, input.fromMemberId, 'fromMemberId');
        await activeMemberOrThrow(tx, groupId, input.toMemberId, 'toMemberId');
        const [inserted] = await tx
          .insert(familyRelationships)
          .values({ familyGroupId: groupId, fromMemberId: input.fromMemberId, toMemberId: input.toMemberId, relationshipType: input.relationshipType, createdBy: callerId })
          .onConflictDoNothing()
          .returning();
        if (!inserted) throw conflict('This relationship is already recorded', { code: 'relationship_exists' });
        return inserted;
      });
      return { id: row.id, fromMemberId: row.fromMemberId, toMemberId: row.toMemberId, relationshipType: row.relationshipType, createdBy: row.createdBy, createdAt: row.createdAt.toISOString() };
    },

    // ---- memories ----
    async listMemories(callerId: string, groupId: string, limit: number, offset: number): Promise<MemoryView[]> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await pg<Parameters<typeof toMemory>[0][]>`
        select f.id, f.family_group_id, f.created_by, coalesce(nullif(p.display_name, ''), p.full_name) as author_name, f.title, f.content,
               f.memory_date::text as memory_date, f.tags, f.media, f.created_at, f.updated_at
          from family_memories f left join profiles p on p.id = f.created_by
         where f.family_group_id = ${groupId}
         order by f.created_at desc, f.id desc
         limit ${limit} offset ${offset}`;
      return rows.map(toMemory);
    },

    getMemory,

    async addMemory(callerId: string, groupId: string, input: { title: string; content?: string | null; memoryDate?: string | null; tags?: string[]; media?: { imageId: string; caption?: string }[] }): Promise<MemoryView> {
      await access.requireGroup(callerId, groupId, 'upload_photos');
      const id = await db.transaction(async (tx) => {
        const media = await ownMedia(tx, callerId, input.media ?? []);
        const row = one(
          await tx
            .insert(familyMemories)
            .values({ familyGroupId: groupId, createdBy: callerId, title: input.title, content: input.content ?? null, memoryDate: input.memoryDate ?? null, tags: input.tags ?? [], media })
            .returning({ id: familyMemories.id }),
        );
        await recordEvent(tx, { familyGroupId: groupId, actorId: callerId, eventType: 'memory_added', subjectType: 'family_memory', subjectId: row.id, title: input.title });
        return row.id;
      });
      return memoryView(groupId, id);
    },

    async updateMemory(callerId: string, groupId: string, memoryId: string, input: { title?: string; content?: string | null; memoryDate?: string | null; tags?: string[]; media?: { imageId: string; caption?: string }[] }): Promise<MemoryView> {
      const current = await getMemory(callerId, groupId, memoryId);
      await access.requireGroup(callerId, groupId, 'edit_stories', { isAuthor: current.createdBy === callerId });
      await db.transaction(async (tx) => {
        const media = input.media !== undefined ? await ownMedia(tx, callerId, input.media) : undefined;
        await tx
          .update(familyMemories)
          .set({
            ...(input.title !== undefined ? { title: input.title } : {}),
            ...(input.content !== undefined ? { content: input.content } : {}),
            ...(input.memoryDate !== undefined ? { memoryDate: input.memoryDate } : {}),
            ...(input.tags !== undefined ? { tags: input.tags } : {}),
            ...(media !== undefined ? { media } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(familyMemories.id, memoryId));
      });
      return memoryView(groupId, memoryId);
    },

    async deleteMemory(callerId: string, groupId: string, memoryId: string): Promise<{ success: true; id: string }> {
      const current = await getMemory(callerId, groupId, memoryId);
      await access.requireGroup(callerId, groupId, 'edit_stories', { isAuthor: current.createdBy === callerId });
      await db.transaction(async (tx) => {
        await tx.delete(familyMemories).where(eq(familyMemories.id, memoryId));
        // Events point at subjects without a foreign key: drop the memory's own events with it.
        await tx.execute(sql`delete from timeline_events where subject_type = 'family_memory' and subject_id = ${memoryId}`);
      });
      return { success: true, id: memoryId };
    },

    // ---- media, prompts, leaderboard ----
    /** Photos attached to the group's memories and the photos of its active members, newest first. */
    async listMedia(callerId: string, groupId: string, limit: number) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await pg<{ id: string; source: string; memory_id: string | null; image_id: string | null; mime_type: string; title: string | null; caption: string | null; added_by: string | null; created_at: Date | string }[]>`
        (select f.id || ':' || x.ord as id, 'memory' as source, f.id as memory_id, (x.item->>'imageId')::uuid as image_id,
                x.item->>'mimeType' as mime_type, f.title, x.item->>'caption' as caption, f.created_by as added_by, f.created_at
           from family_memories f cross join lateral jsonb_array_elements(f.media) with ordinality as x(item, ord)
          where f.family_group_id = ${groupId})
        union all
        (select i.id::text, 'image', null, i.id, i.mime_type, i.title, i.caption, i.user_id, i.created_at
           from images i
           join family_members m on m.user_id = i.user_id and m.family_group_id = ${groupId} and m.status = 'active')
        order by created_at desc, id desc
        limit ${limit}`;
      return rows.map((r) => ({ id: r.id, source: r.source, memoryId: r.memory_id, imageId: r.image_id, mimeType: r.mime_type, title: r.title, caption: r.caption, addedBy: r.added_by, createdAt: toIso(r.created_at) }));
    },

    /** Published library prompts suited to the family's relationships (or to anyone); a starter set when none are published. */
    async storyPrompts(callerId: string, groupId: string, limit: number) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await pg<{ id: string; prompt: string; category: string | null; relationship_type: string | null }[]>`
        select l.id, l.prompt, l.category, l.relationship_type
          from story_prompt_library l
         where l.status = 'published'
           and (l.relationship_type is null
                or l.relationship_type in (select m.relationship from family_members m where m.family_group_id = ${groupId} and m.status = 'active' and m.relationship is not null)
                or l.relationship_type in (select c.relationship from campaigns c join family_members m on m.user_id = c.user_id and m.family_group_id = ${groupId} and m.status = 'active'))
         order by l.usage_count desc, l.created_at desc
         limit ${limit}`;
      if (rows.length) return { prompts: rows.map((r) => ({ id: r.id, prompt: r.prompt, category: r.category, relationshipType: r.relationship_type, source: 'library' as const })) };
      return { prompts: STARTER_PROMPTS.slice(0, limit).map((p, n) => ({ id: `starter-${n + 1}`, prompt: p.prompt, category: p.category, relationshipType: null, source: 'starter' as const })) };
    },

    /**
     * Contributions per active member with an account, counted from real rows: stories they wrote
     * (metadata.authorId when a contributor wrote into someone's campaign, else the owner), recordings
     * they made, memories they added to this group. Points: story 10, recording 5, memory 3.
     */
    async leaderboard(callerId: string, groupId: string) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await pg<{ member_id: string; user_id: string; name: string; stories: number; recordings: number; memories: number }[]>`
        select m.id as member_id, m.user_id,
               coalesce(nullif(m.display_name, ''), nullif(p.display_name, ''), nullif(p.full_name, ''), split_part(a.email, '@', 1)) as name,
               (select count(*)::int from stories s where coalesce(s.metadata->>'authorId', s.user_id::text) = m.user_id::text) as stories,
               (select count(*)::int from recordings r where r.user_id = m.user_id) as recordings,
               (select count(*)::int from family_memories f where f.family_group_id = m.family_group_id and f.created_by = m.user_id) as memories
          from family_members m
          join accounts a on a.id = m.user_id
          left join profiles p on p.id = m.user_id
         where m.family_group_id = ${groupId} and m.status = 'active'`;
      const scored = rows
        .map((r) => ({ memberId: r.member_id, userId: r.user_id, displayName: r.name, stories: r.stories, recordings: r.recordings, memories: r.memories, points: r.stories * 10 + r.recordings * 5 + r.memories * 3 }))
        .sort((a, b) => b.points - a.points || a.displayName.localeCompare(b.displayName));
      let rank = 0;
      let prev = Number.NaN;
      return scored.map((r, n) => {
        if (r.points !== prev) rank = n + 1;
        prev = r.points;
        return { ...r, rank };
      });
    },
  };
}

/** Create a group with its creator as owner member (shared with the campaign create flow). Returns the id. */
export async function createGroupInTx(tx: DbOrTx, callerId: string, input: { name: string; description?: string | null; settings?: Record<string, unknown> }): Promise<string> {
  const group = one(await tx.insert(familyGroups).values({ createdBy: callerId, name: input.name, description: input.description ?? null, settings: input.settings ?? {} }).returning({ id: familyGroups.id }));
  await tx.insert(familyMembers).values({ familyGroupId: group.id, userId: callerId, role: 'owner', status: 'active' });
  await recordEvent(tx, { familyGroupId: group.id, actorId: callerId, eventType: 'group_created', subjectType: 'family_group', subjectId: group.id, title: input.name });
  return group.id;
}

export type FamilyService = ReturnType<typeof createFamilyService>;
