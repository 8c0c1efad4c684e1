// The admin audit trail (admin_audit_log): one append-only row per change, written in the same
// transaction as the change itself so a rolled-back change leaves no row.
import { adminAuditLog, type Database, type DbOrTx } from '@story/db';

export interface AuditEntry {
  actorId: string;
  /** Verb-style: feature_flag.update, user.impersonate, prompt_template.rollback, ... */
  action: string;
  targetType?: string;
  targetId?: string;
  impersonatedUserId?: string;
  /** Client IP with the last octet removed (spec 000 Authentication 10); the rule of ipPrefix in core-api auth.service. */
  ipPrefix?: string | null;
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

export type AuditLog = ReturnType<typeof createAuditLog>;

export function createAuditLog(db: Database) {
  return {
    /** Append one row; pass the transaction of the change it records. */
    async record(entry: AuditEntry, tx: DbOrTx = db): Promise<void> {
      await tx.insert(adminAuditLog).values({
        actorId: entry.actorId,
        action: entry.action,
        targetType: entry.targetType ?? null,
        targetId: entry.targetId ?? null,
        impersonatedUserId: entry.impersonatedUserId ?? null,
        ipPrefix: entry.ipPrefix ?? null,
        data: { before: entry.before ?? null, after: entry.after ?? null, ...(entry.requestId ? { requestId: entry.requestId } : {}) },
      });
    },
  };
}
