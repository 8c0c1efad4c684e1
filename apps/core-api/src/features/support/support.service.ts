// POST /api/support/flag: report a story, recording or conversation for review. Only content the caller
// may see can be reported (the access policy decides; anything else is a 404, as if it did not exist),
// and a second report of the same item by the same person while the first is open returns the first.
import type { FlagContentType } from '@story/db';
import { notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import { createSupportRepository, type FlagRow } from './support.repository';
import type { Sql } from 'postgres';

const LABEL: Record<FlagContentType, string> = { story: 'Story', recording: 'Recording', conversation: 'Conversation' };

export interface FlagInput {
  contentType: FlagContentType;
  contentId: string;
  reason: string;
  details?: string;
}

const view = (r: FlagRow) => ({
  id: r.id,
  contentType: r.content_type,
  contentId: r.content_id,
  reason: r.reason,
  details: r.details,
  status: r.status,
  createdAt: r.created_at,
});

export function createSupportService({ sql, access }: { sql: Sql; access: Pick<AccessPolicy, 'roleFor'> }) {
  const repo = createSupportRepository(sql);
  return {
    async flag(callerId: string, input: FlagInput) {
      const owner = await repo.ownerOf(input.contentType, input.contentId);
      if (!owner || !(await access.roleFor(callerId, owner))) throw notFound(LABEL[input.contentType]);
      return repo.transaction(async (tx) => {
        await repo.lockReport(tx, callerId, input.contentType, input.contentId);
        const open = await repo.findOpen(tx, callerId, input.contentType, input.contentId);
        if (open) return { created: false, flag: view(open) };
        const row = await repo.insert(tx, { userId: callerId, type: input.contentType, id: input.contentId, reason: input.reason, details: input.details ?? null });
        return { created: true, flag: view(row) };
      });
    },
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
