// AI prompt templates with version history (spec 001 "Admin resources"): every edit adds a version and
// makes it current; rollback points current_version back at an existing version (history is never
// rewritten); diff compares any two versions line by line. The providers lib reads the current version
// by key at run time (libs/providers llm/managed/prompt-store.ts). Each change and its audit row share a transaction.
import { and, asc, desc, eq, max } from 'drizzle-orm';
import { aiPromptTemplates, aiPromptTemplateVersions, isUniqueViolation, one, type Database, type DbOrTx } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import { MANAGED_PROMPT_KEYS } from '@story/providers';
import type { AuditLog } from '../admin/audit-log.repository';
import { rowView } from '../admin/admin-views';
import { lineDiff, unifiedText } from './line-diff';

export interface Actor {
  actorId: string;
  requestId?: string;
}

export interface VersionInput {
  content: string;
  variables?: string[];
  model_settings?: Record<string, unknown>;
  change_note?: string | null;
}

export interface PromptInput extends VersionInput {
  key: string;
  name: string;
  description?: string | null;
  category?: string | null;
}

/** The {{name}} placeholders of a prompt, when the caller does not list them. */
const placeholders = (content: string) => [...new Set([...content.matchAll(/\{\{\s*([a-zA-Z_][\w.]*)\s*\}\}/g)].map((m) => m[1] ?? ''))];

export function createPromptsService({ db, audit }: { db: Database; audit: AuditLog }) {
  const versionRow = async (templateId: string, version: number, tx: DbOrTx = db) =>
    (await tx.select().from(aiPromptTemplateVersions).where(and(eq(aiPromptTemplateVersions.templateId, templateId), eq(aiPromptTemplateVersions.version, version))))[0];

  async function template(id: string, tx: DbOrTx = db, lock = false) {
    const q = tx.select().from(aiPromptTemplates).where(eq(aiPromptTemplates.id, id));
    const [row] = await (lock ? q.for('update') : q);
    if (!row) throw notFound('Prompt template');
    return row;
  }

  async function view(row: typeof aiPromptTemplates.$inferSelect, tx: DbOrTx = db) {
    const active = await versionRow(row.id, row.currentVersion, tx);
    return { ...rowView(row), content: active?.content ?? '', variables: active?.variables ?? [], model_settings: active?.modelSettings ?? {} };
  }

  const versionValues = (templateId: string, version: number, input: VersionInput, actorId: string) => ({
    templateId,
    version,
    content: input.content,
    variables: input.variables ?? placeholders(input.content),
    modelSettings: input.model_settings ?? {},
    changeNote: input.change_note ?? null,
    createdBy: actorId,
  });

  return {
    async list() {
      const rows = await db.select().from(aiPromptTemplates).orderBy(asc(aiPromptTemplates.key));
      const templates = await Promise.all(rows.map((r) => view(r)));
      // The keys the code reads, so an admin sees which prompts are live and which still use the built-in text.
      const managed = Object.entries(MANAGED_PROMPT_KEYS).map(([key, used_by]) => ({ key, used_by, has_template: rows.some((r) => r.key === key && r.isActive) }));
      return { templates, managed_keys: managed };
    },

    async get(id: string) {
      return view(await template(id));
    },

    async create(input: PromptInput, actor: Actor) {
      try {
        return await db.transaction(async (tx) => {
          const row = one(await tx
            .insert(aiPromptTemplates)
            .values({ key: input.key, name: input.name, description: input.description ?? null, category: input.category ?? null, currentVersion: 1, createdBy: actor.actorId })
            .returning());
          await tx.insert(aiPromptTemplateVersions).values(versionValues(row.id, 1, input, actor.actorId));
          const after = await view(row, tx);
          await audit.record({ ...actor, action: 'prompt_template.create', targetType: 'prompt_template', targetId: row.id, before: null, after }, tx);
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err, 'ai_prompt_templates_key_key')) throw conflict('A prompt template with this key already exists', { details: { field: 'key' } });
        throw err;
      }
    },

    async update(id: string, input: { name?: string; description?: string | null; category?: string | null; is_active?: boolean }, actor: Actor) {
      const values = { name: input.name, description: input.description, category: input.category, isActive: input.is_active };
      if (Object.values(values).every((v) => v === undefined)) throw badRequest('Nothing to update: send name, description, category or is_active', { details: { missing_fields: ['name'] } });
      return db.transaction(async (tx) => {
        const before = await template(id, tx, true);
        const row = one(await tx.update(aiPromptTemplates).set({ ...values, updatedAt: new Date() }).where(eq(aiPromptTemplates.id, id)).returning());
        await audit.record({ ...actor, action: 'prompt_template.update', targetType: 'prompt_template', targetId: id, before: rowView(before), after: rowView(row) }, tx);
        return view(row, tx);
      });
    },

    /** An edit: version max+1 with the new text, made current. */
    async addVersion(id: string, input: VersionInput, actor: Actor) {
      return db.transaction(async (tx) => {
        const before = await template(id, tx, true);
        const [top] = await tx.select({ v: max(aiPromptTemplateVersions.version) }).from(aiPromptTemplateVersions).where(eq(aiPromptTemplateVersions.templateId, id));
        const version = (top?.v ?? 0) + 1;
        await tx.insert(aiPromptTemplateVersions).values(versionValues(id, version, input, actor.actorId));
        const row = one(await tx.update(aiPromptTemplates).set({ currentVersion: version, updatedAt: new Date() }).where(eq(aiPromptTemplates.id, id)).returning());
        await audit.record(
          { ...actor, action: 'prompt_template.new_version', targetType: 'prompt_template', targetId: id, before: { current_version: before.currentVersion }, after: { current_version: version, change_note: input.change_note ?? null } },
          tx,
        );
        return view(row, tx);
      });
    },

    async versions(id: string) {
      const row = await template(id);
      const rows = await db.select().from(aiPromptTemplateVersions).where(eq(aiPromptTemplateVersions.templateId, id)).orderBy(desc(aiPromptTemplateVersions.version));
      return { current_version: row.currentVersion, versions: rows.map((v) => ({ ...rowView(v), is_current: v.version === row.currentVersion })) };
    },

    async diff(id: string, from: number, to: number) {
      await template(id);
      const [a, b] = [await versionRow(id, from), await versionRow(id, to)];
      if (!a) throw notFound(`Version ${from}`, { details: { field: 'from', version: from } });
      if (!b) throw notFound(`Version ${to}`, { details: { field: 'to', version: to } });
      const { lines, added, removed } = lineDiff(a.content, b.content);
      return { from, to, added, removed, lines, unified: unifiedText(lines) };
    },

    /** current_version -> an existing older (or newer) version; an unknown version is 404 and changes nothing. */
    async rollback(id: string, version: number, actor: Actor) {
      return db.transaction(async (tx) => {
        const before = await template(id, tx, true);
        if (!(await versionRow(id, version, tx))) throw notFound(`Version ${version} of this prompt template`, { details: { field: 'version', version } });
        if (before.currentVersion === version) throw conflict(`Version ${version} is already the active version`, { details: { field: 'version' } });
        const row = one(await tx.update(aiPromptTemplates).set({ currentVersion: version, updatedAt: new Date() }).where(eq(aiPromptTemplates.id, id)).returning());
        await audit.record({ ...actor, action: 'prompt_template.rollback', targetType: 'prompt_template', targetId: id, before: { current_version: before.currentVersion }, after: { current_version: version } }, tx);
        return view(row, tx);
      });
    },
  };
}

export type PromptsService = ReturnType<typeof createPromptsService>;
