// Factories for the stories, books and export tests (CONVENTIONS 12): rows inserted directly and
// returned, family groups with members in given states, and a PDF reader that opens files the way a
// reader's program would (MuPDF).
import type { Sql } from 'postgres';
import type { App } from '@story/http';
import { readPdfWithMupdf, type MupdfDocument, type ReadOptions } from '@story/testing';
import { signUp, type SignedUp } from './helper';

export async function newStory(sql: Sql, ownerId: string, fields: { title?: string; content?: string; wordCount?: number; createdAt?: Date; authorId?: string } = {}): Promise<{ id: string }> {
  const content = fields.content ?? '<p>A short story.</p>';
  const words = fields.wordCount ?? content.replace(/<[^>]*>/g, ' ').trim().split(/\s+/).filter(Boolean).length;
  const [row] = await sql<{ id: string }[]>`
    insert into stories (user_id, title, content, word_count, metadata, created_at, updated_at)
    values (${ownerId}, ${fields.title ?? 'A story'}, ${content}, ${words}, ${JSON.stringify({ authorId: fields.authorId ?? ownerId })}::jsonb,
            ${(fields.createdAt ?? new Date()).toISOString()}::timestamptz at time zone 'UTC', ${(fields.createdAt ?? new Date()).toISOString()}::timestamptz at time zone 'UTC')
    returning id`;
  return row!;
}

export async function newCampaign(sql: Sql, ownerId: string, title = 'A campaign'): Promise<{ id: string }> {
  const [row] = await sql<{ id: string }[]>`
    insert into campaigns (user_id, title, storyteller_name, relationship) values (${ownerId}, ${title}, ${title}, 'grandparent') returning id`;
  return row!;
}

/** A family group created by `ownerId` (member with role owner) with the given members, all active. */
export async function newFamily(sql: Sql, ownerId: string, members: { userId: string; role: 'family_contributor' | 'family_viewer' }[]): Promise<{ id: string }> {
  const [group] = await sql<{ id: string }[]>`insert into family_groups (created_by, name) values (${ownerId}, 'The family') returning id`;
  await sql`insert into family_members (family_group_id, user_id, role) values (${group!.id}, ${ownerId}, 'owner')`;
  for (const m of members) await sql`insert into family_members (family_group_id, user_id, role) values (${group!.id}, ${m.userId}, ${m.role})`;
  return group!;
}

export async function removeMember(sql: Sql, groupId: string, userId: string): Promise<void> {
  await sql`update family_members set status = 'removed', removed_at = now() where family_group_id = ${groupId} and user_id = ${userId}`;
}

export async function setTier(sql: Sql, userId: string, tier: 'free' | 'starter' | 'family' | 'premium'): Promise<void> {
  await sql`update profiles set subscription_tier = ${tier} where id = ${userId}`;
}

export interface Cast {
  owner: SignedUp;
  contributor: SignedUp;
  viewer: SignedUp;
  removed: SignedUp;
  stranger: SignedUp;
  groupId: string;
}

/** The five callers of the permission matrix around one owner's content. */
export async function newCast(app: App, sql: Sql): Promise<Cast> {
  const [owner, contributor, viewer, removed, stranger] = await Promise.all([signUp(app), signUp(app), signUp(app), signUp(app), signUp(app)]);
  const group = await newFamily(sql, owner.userId, [
    { userId: contributor.userId, role: 'family_contributor' },
    { userId: viewer.userId, role: 'family_viewer' },
    { userId: removed.userId, role: 'family_contributor' },
  ]);
  await removeMember(sql, group.id, removed.userId);
  return { owner, contributor, viewer, removed, stranger, groupId: group.id };
}

/** Run the app's job runner (not started in tests) and poll an export job until it is completed or failed. */
export async function waitForExport(app: App, headers: Record<string, string>, bookId: string, jobId: string, timeoutMs = 20000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await app.coreJobs.drain();
    const res = await app.inject({ method: 'GET', url: `/api/books/${bookId}/exports/${jobId}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET export answered ${res.statusCode} ${res.body}`);
    const job = res.json().job as Record<string, unknown>;
    if (job['status'] === 'completed' || job['status'] === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`export ${jobId} still ${String(job['status'])}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ReadPdf {
  text: string;
  pages: number;
  pageTexts: string[];
  width: number;
  height: number;
  info: Record<string, unknown>;
  /** Everything MuPDF saw: boxes, lines, glyphs, ink per page. */
  doc: MupdfDocument;
}

/**
 * Text (whole and per page), page count, first page size and document info of a PDF, read by MuPDF's
 * WebAssembly build in a plain Node process (@story/testing), as a reader's program outside the tests would.
 */
export async function readPdf(buffer: Buffer, options: ReadOptions = {}): Promise<ReadPdf> {
  const doc = await readPdfWithMupdf(buffer, options);
  const first = doc.pages[0];
  const info: Record<string, unknown> = {};
  if (doc.title) info['Title'] = doc.title;
  if (doc.author) info['Author'] = doc.author;
  return {
    text: doc.pages.map((p) => p.text).join('\n'),
    pages: doc.pages.length,
    pageTexts: doc.pages.map((p) => p.text),
    width: first ? first.mediaBox[2] - first.mediaBox[0] : 0,
    height: first ? first.mediaBox[3] - first.mediaBox[1] : 0,
    info,
    doc,
  };
}
