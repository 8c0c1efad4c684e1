// Email templates (spec 001 "Email template"): list, read, create, update, delete. Every create and update
// snapshots the new content into email_template_versions in the same transaction, so history never lags.
// Every change is also one admin_audit_log row in that transaction, as every other admin change (flags,
// content, users) is, so the admin application's audit log shows template work beside them.
import { createHash } from 'node:crypto';
import { AppError } from '@story/http';
import { isUniqueViolation, type DbOrTx, type EmailCategory } from '@story/db';
import { placeholdersIn } from '@story/email';
import type { AuditLog } from '../admin/audit-log.repository';
import type { TemplateContent, TemplateRow, TemplatesRepository, TemplateVersionRow } from './templates.repository';

export interface TemplateView {
  id: string;
  name: string;
  display_name: string | null;
  description: string | null;
  category: string;
  subject_template: string;
  html_template: string;
  text_template: string | null;
  available_variables: Record<string, string>;
  default_variables: Record<string, unknown>;
  required_variables: string[];
  trigger_events: string[];
  send_delay_hours: number;
  max_sends_per_user: number | null;
  is_active: boolean;
  is_system: boolean;
  current_version: number;
  total_sent: number;
  total_opened: number;
  total_clicked: number;
  created_at: string;
  updated_at: string;
}

export interface TemplateInput {
  name: string;
  display_name?: string | null;
  description?: string | null;
  category?: EmailCategory;
  subject_template: string;
  html_template: string;
  text_template?: string | null;
  available_variables?: Record<string, string>;
  default_variables?: Record<string, unknown>;
  required_variables?: string[];
  trigger_events?: string[];
  send_delay_hours?: number;
  max_sends_per_user?: number | null;
  is_active?: boolean;
}

export interface ListTemplatesInput {
  category?: string;
  search?: string;
  status: 'active' | 'inactive' | 'all';
  limit: number;
  offset: number;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toTemplateView(row: TemplateRow): TemplateView {
  return {
    id: row.id,
    name: row.name,
    display_name: row.displayName,
    description: row.description,
    category: row.category,
    subject_template: row.subjectTemplate,
    html_template: row.htmlTemplate,
    text_template: row.textTemplate,
    available_variables: row.availableVariables,
    default_variables: row.defaultVariables,
    required_variables: row.requiredVariables,
    trigger_events: row.triggerEvents,
    send_delay_hours: row.sendDelayHours,
    max_sends_per_user: row.maxSendsPerUser,
    is_active: row.isActive,
    is_system: row.isSystem,
    current_version: row.currentVersion,
    total_sent: row.totalSent,
    total_opened: row.totalOpened,
    total_clicked: row.totalClicked,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A recorded version of a template: its full content at that version and who made it. */
export interface TemplateVersionView {
  version: number;
  name: string;
  display_name: string | null;
  category: string;
  subject_template: string;
  html_template: string;
  text_template: string | null;
  is_active: boolean;
  changed_by: string | null;
  change_note: string | null;
  created_at: string;
}

export const toVersionView = (v: TemplateVersionRow): TemplateVersionView => ({
  version: v.version,
  name: v.name,
  display_name: v.displayName,
  category: v.category,
  subject_template: v.subjectTemplate,
  html_template: v.htmlTemplate,
  text_template: v.textTemplate,
  is_active: v.isActive,
  changed_by: v.changedBy,
  change_note: v.changeNote,
  created_at: v.createdAt.toISOString(),
});

export const templateNotFound = (id: string) => new AppError('not_found', 'Template not found', { code: 'TEMPLATE_NOT_FOUND', details: { template_id: id } });

function checkRequiredVariables(input: TemplateInput): void {
  const used = new Set([input.subject_template, input.html_template, input.text_template ?? ''].flatMap(placeholdersIn));
  const missing = (input.required_variables ?? []).filter((v) => !used.has(v));
  if (missing.length) {
    throw new AppError('validation', `required_variables must appear as {{placeholders}} in the subject, HTML or text: ${missing.join(', ')}`, {
      field: 'required_variables',
      details: { field: 'required_variables', missing_placeholders: missing },
    });
  }
}

/** Who changes a template, as the audit log keeps it. */
export interface TemplateActor {
  actorId: string;
  requestId?: string;
  ipPrefix?: string | null;
}

const digest = (text: string | null) => (text === null ? null : createHash('sha256').update(text).digest('hex'));

/**
 * What an audit row keeps of a template: the fields a reader compares, with the bodies as SHA-256 digests (a
 * body may be 500 kB; its full text at every version is in email_template_versions).
 */
export const templateAuditShape = (row: TemplateRow) => ({
  name: row.name,
  display_name: row.displayName,
  category: row.category,
  subject_template: row.subjectTemplate,
  html_template_sha256: digest(row.htmlTemplate),
  text_template_sha256: digest(row.textTemplate),
  required_variables: row.requiredVariables,
  trigger_events: row.triggerEvents,
  send_delay_hours: row.sendDelayHours,
  max_sends_per_user: row.maxSendsPerUser,
  is_active: row.isActive,
  version: row.currentVersion,
});

const duplicateName = (name: string) => new AppError('conflict', `A template named ${name} already exists`, { code: 'CONFLICT', details: { field: 'name', name } });

/** The columns an API body sets; absent optional fields fall back to the column defaults. */
function contentOf(input: TemplateInput): TemplateContent {
  return {
    name: input.name,
    displayName: input.display_name ?? null,
    description: input.description ?? null,
    category: input.category ?? 'transactional',
    subjectTemplate: input.subject_template,
    htmlTemplate: input.html_template,
    textTemplate: input.text_template ?? null,
    availableVariables: input.available_variables ?? {},
    defaultVariables: input.default_variables ?? {},
    requiredVariables: input.required_variables ?? [],
    triggerEvents: input.trigger_events ?? [],
    sendDelayHours: input.send_delay_hours ?? 0,
    maxSendsPerUser: input.max_sends_per_user ?? null,
    isActive: input.is_active ?? true,
  };
}

export function createTemplatesService({ templates, audit }: { templates: TemplatesRepository; audit: AuditLog }) {
  const record = (actor: TemplateActor, action: string, id: string, before: TemplateRow | null, after: TemplateRow | null, tx: DbOrTx) =>
    audit.record(
      {
        actorId: actor.actorId,
        requestId: actor.requestId,
        ipPrefix: actor.ipPrefix,
        action: `email_template.${action}`,
        targetType: 'email_template',
        targetId: id,
        before: before && templateAuditShape(before),
        after: after && templateAuditShape(after),
      },
      tx,
    );

  async function find(id: string): Promise<TemplateRow> {
    if (!UUID_RE.test(id)) throw templateNotFound(id);
    const row = await templates.findById(id);
    if (!row) throw templateNotFound(id);
    return row;
  }

  return {
    async list(input: ListTemplatesInput) {
      const { rows, total } = await templates.list(
        {
          category: input.category && input.category !== 'all' ? (input.category as EmailCategory) : undefined,
          active: input.status === 'active' ? true : input.status === 'inactive' ? false : undefined,
          search: input.search?.trim() || undefined,
        },
        { limit: input.limit, offset: input.offset },
      );
      return {
        templates: rows.map(toTemplateView),
        pagination: { total, limit: input.limit, offset: input.offset, hasMore: input.offset + rows.length < total },
      };
    },

    async get(id: string): Promise<TemplateView> {
      return toTemplateView(await find(id));
    },

    async create(input: TemplateInput, actor: TemplateActor): Promise<TemplateView> {
      checkRequiredVariables(input);
      try {
        return await templates.transaction(async (tx) => {
          const row = await templates.insert(contentOf(input), actor.actorId, tx);
          await templates.insertVersion(row, actor.actorId, 'created', tx);
          await record(actor, 'create', row.id, null, row, tx);
          return toTemplateView(row);
        });
      } catch (err) {
        if (isUniqueViolation(err, 'email_templates_name_key')) throw duplicateName(input.name);
        throw err;
      }
    },

    async update(id: string, input: TemplateInput, actor: TemplateActor): Promise<TemplateView> {
      if (!UUID_RE.test(id)) throw templateNotFound(id);
      checkRequiredVariables(input);
      try {
        return await templates.transaction(async (tx) => {
          const before = await templates.lockById(id, tx);
          if (!before) throw templateNotFound(id);
          const row = await templates.replace(id, contentOf(input), actor.actorId, tx);
          if (!row) throw templateNotFound(id);
          await templates.insertVersion(row, actor.actorId, 'updated', tx);
          await record(actor, 'update', id, before, row, tx);
          return toTemplateView(row);
        });
      } catch (err) {
        if (isUniqueViolation(err, 'email_templates_name_key')) throw duplicateName(input.name);
        throw err;
      }
    },

    /** The version history, newest first, with the version that is current now. */
    async versions(id: string): Promise<{ template: TemplateView; versions: TemplateVersionView[] }> {
      const row = await find(id);
      return { template: toTemplateView(row), versions: (await templates.listVersions(id)).map(toVersionView) };
    },

    /**
     * Roll back to a recorded version: its content becomes the template's again as a new version (history is
     * never rewritten), noted "rollback to vN", in one transaction with the row locked. The name stays the
     * current one, so automation that sends by name keeps working.
     */
    async rollback(id: string, version: number, actor: TemplateActor): Promise<TemplateView> {
      if (!UUID_RE.test(id)) throw templateNotFound(id);
      return templates.transaction(async (tx) => {
        const current = await templates.lockById(id, tx);
        if (!current) throw templateNotFound(id);
        const old = await templates.findVersion(id, version, tx);
        if (!old) throw new AppError('not_found', `Version ${version} of this template does not exist`, { code: 'NOT_FOUND', field: 'version', details: { template_id: id, version } });
        if (old.version === current.currentVersion) throw new AppError('conflict', `Version ${version} is already the current version`, { code: 'CONFLICT', field: 'version' });
        const row = await templates.replace(
          id,
          {
            name: current.name,
            displayName: old.displayName,
            description: old.description,
            category: old.category as EmailCategory,
            subjectTemplate: old.subjectTemplate,
            htmlTemplate: old.htmlTemplate,
            textTemplate: old.textTemplate,
            availableVariables: old.availableVariables,
            defaultVariables: old.defaultVariables,
            requiredVariables: old.requiredVariables,
            triggerEvents: old.triggerEvents,
            sendDelayHours: old.sendDelayHours,
            maxSendsPerUser: old.maxSendsPerUser,
            isActive: old.isActive,
          },
          actor.actorId,
          tx,
        );
        if (!row) throw templateNotFound(id);
        await templates.insertVersion(row, actor.actorId, `rollback to v${version}`, tx);
        await record(actor, 'rollback', id, current, row, tx);
        return toTemplateView(row);
      });
    },

    async remove(id: string, actor: TemplateActor): Promise<{ name: string }> {
      if (!UUID_RE.test(id)) throw templateNotFound(id);
      return templates.transaction(async (tx) => {
        const row = await templates.lockById(id, tx);
        if (!row) throw templateNotFound(id);
        if (row.isSystem) {
          throw new AppError('forbidden', 'System templates cannot be deleted', { code: 'SYSTEM_TEMPLATE', details: { template_id: id } });
        }
        await templates.deleteUnlessSystem(id, tx);
        await record(actor, 'delete', id, row, null, tx);
        return { name: row.name };
      });
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
