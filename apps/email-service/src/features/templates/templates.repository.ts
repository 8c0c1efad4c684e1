// SQL of email templates and their version history (Drizzle). Methods take an optional transaction, so the
// service can write a template and its version snapshot together.
import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { emailTemplates, emailTemplateVersions, type Database, type DbOrTx, type EmailCategory } from '@story/db';

export type TemplateRow = typeof emailTemplates.$inferSelect;
export type TemplateVersionRow = typeof emailTemplateVersions.$inferSelect;
/** The columns a create or update sets from an API body. */
export type TemplateContent = Omit<typeof emailTemplates.$inferInsert, 'id' | 'currentVersion' | 'createdBy' | 'updatedBy' | 'createdAt' | 'updatedAt'>;

export interface TemplateFilters {
  category?: EmailCategory;
  active?: boolean;
  /** Matched literally (no wildcards) against name and description, case-insensitively. */
  search?: string;
}

/** ILIKE pattern matching `term` literally: %, _ and \ in the user's search are not wildcards. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(filters: TemplateFilters): SQL | undefined {
  const where: SQL[] = [];
  if (filters.category) where.push(eq(emailTemplates.category, filters.category));
  if (filters.active !== undefined) where.push(eq(emailTemplates.isActive, filters.active));
  if (filters.search) {
    const pattern = likePattern(filters.search);
    where.push(or(ilike(emailTemplates.name, pattern), ilike(emailTemplates.description, pattern))!);
  }
  return where.length ? and(...where) : undefined;
}

export function createTemplatesRepository(db: Database) {
  return {
    transaction<T>(fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },

    async findById(id: string, tx: DbOrTx = db): Promise<TemplateRow | undefined> {
      const [row] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, id));
      return row;
    },

    /** The row locked until the transaction ends (serialises work that depends on it, e.g. starting an A/B test). */
    async lockById(id: string, tx: DbOrTx): Promise<TemplateRow | undefined> {
      const [row] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, id)).for('update');
      return row;
    },

    /** A page of templates, newest first, and the total the filters match. */
    async list(filters: TemplateFilters, page: { limit: number; offset: number }, tx: DbOrTx = db): Promise<{ rows: TemplateRow[]; total: number }> {
      const condition = whereOf(filters);
      const [rows, [totals]] = await Promise.all([
        tx.select().from(emailTemplates).where(condition).orderBy(desc(emailTemplates.createdAt), emailTemplates.id).limit(page.limit).offset(page.offset),
        tx.select({ total: count() }).from(emailTemplates).where(condition),
      ]);
      return { rows, total: Number(totals?.total ?? 0) };
    },

    /** Insert a template at version 1. */
    async insert(content: TemplateContent, actorId: string | null, tx: DbOrTx = db): Promise<TemplateRow> {
      const [row] = await tx
        .insert(emailTemplates)
        .values({ ...content, currentVersion: 1, createdBy: actorId, updatedBy: actorId })
        .returning();
      return row!;
    },

    /** Replace a template's content and move it to the next version; undefined when no such template. */
    async replace(id: string, content: TemplateContent, actorId: string | null, tx: DbOrTx = db): Promise<TemplateRow | undefined> {
      const [row] = await tx
        .update(emailTemplates)
        .set({ ...content, currentVersion: sql`${emailTemplates.currentVersion} + 1`, updatedBy: actorId, updatedAt: new Date() })
        .where(eq(emailTemplates.id, id))
        .returning();
      return row;
    },

    /** Snapshot a template row as version `row.currentVersion`. */
    async insertVersion(row: TemplateRow, changedBy: string | null, changeNote: string, tx: DbOrTx = db): Promise<void> {
      await tx.insert(emailTemplateVersions).values({
        templateId: row.id,
        version: row.currentVersion,
        name: row.name,
        displayName: row.displayName,
        description: row.description,
        category: row.category,
        subjectTemplate: row.subjectTemplate,
        htmlTemplate: row.htmlTemplate,
        textTemplate: row.textTemplate,
        availableVariables: row.availableVariables,
        defaultVariables: row.defaultVariables,
        requiredVariables: row.requiredVariables,
        triggerEvents: row.triggerEvents,
        sendDelayHours: row.sendDelayHours,
        maxSendsPerUser: row.maxSendsPerUser,
        isActive: row.isActive,
        changedBy,
        changeNote,
      });
    },

    /** Every snapshot of a template, newest first. */
    async listVersions(templateId: string, tx: DbOrTx = db): Promise<TemplateVersionRow[]> {
      return tx.select().from(emailTemplateVersions).where(eq(emailTemplateVersions.templateId, templateId)).orderBy(desc(emailTemplateVersions.version));
    },

    async findVersion(templateId: string, version: number, tx: DbOrTx = db): Promise<TemplateVersionRow | undefined> {
      const [row] = await tx.select().from(emailTemplateVersions).where(and(eq(emailTemplateVersions.templateId, templateId), eq(emailTemplateVersions.version, version)));
      return row;
    },

    /** Delete a template unless it is a system one. Queue rows keep their rendered copy (template_id set null); versions and rules cascade. */
    async deleteUnlessSystem(id: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(emailTemplates).where(and(eq(emailTemplates.id, id), eq(emailTemplates.isSystem, false)));
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
