// Factories for the stories, books and export tests (CONVENTIONS 12): rows inserted directly and
// returned, family groups with members in given states, and a PDF reader that opens files the way a
// reader's program would (pdf-parse, i.e. PDF.js).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Sql } from 'postgres';
import type { App } from '@story/http';
import { signUp, type SignedUp } from './helper';

const execFileAsync = promisify(execFile);

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
}

// pdf-parse (PDF.js) sets up its worker with a dynamic import(), which Jest's CommonJS runtime refuses;
// so the PDF is read by a plain Node process, exactly as a program outside the tests would read it.
const READER = `
const { PDFParse } = require(process.argv[1]);
const fs = require('node:fs');
(async () => {
  const parser = new PDFParse({ data: new Uint8Array(fs.readFileSync(process.argv[2])) });
  const text = await parser.getText();
  const info = await parser.getInfo({ parsePageInfo: true });
  const first = info.pages[0] || {};
  process.stdout.write(JSON.stringify({ text: text.text, pages: info.total, pageTexts: text.pages.map((p) => p.text), width: first.width || 0, height: first.height || 0, info: info.info || {} }));
  await parser.destroy();
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;

/** Text (whole and per page), page count, first page size and document info of a PDF. */
export async function readPdf(buffer: Buffer): Promise<ReadPdf> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'read-pdf-'));
  const file = path.join(dir, 'file.pdf');
  try {
    await writeFile(file, buffer);
    const { stdout } = await execFileAsync(process.execPath, ['-e', READER, require.resolve('pdf-parse'), file], { maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout) as ReadPdf;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
