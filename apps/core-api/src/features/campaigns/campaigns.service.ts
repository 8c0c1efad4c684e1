// Campaigns in the API shape of spec 000 (title, description, recordingCount, conversationCount,
// createdAt) over the stored shape. Only the caller's campaigns are ever read. Creating one counts against
// the tier's campaigns allowance.
import type { Sql } from 'postgres';
import type { Database, DbOrTx } from '@story/db';
import { notFound } from '@story/http';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';
import { createCampaignListReader, createCampaignsRepository, type CampaignListRow, type CampaignsRepository } from './campaigns.repository';

export interface CampaignView {
  id: string;
  title: string;
  description: string;
  recordingCount: number;
  conversationCount: number;
  createdAt: string;
}

export interface CreateCampaignInput {
  title: string;
  description?: string;
  storytellerName?: string;
  storytellerEmail?: string;
  relationship?: 'grandparent' | 'parent' | 'partner' | 'other';
}

export function createCampaignsService({ db, sql }: { db: Database; sql: Sql }) {
  const repo = createCampaignsRepository(db);
  const listReader = createCampaignListReader(sql);

  const toView = (row: CampaignListRow): CampaignView => ({
    id: row.id,
    title: row.title,
    description: row.description ?? '',
    recordingCount: Number(row.recordingCount),
    conversationCount: Number(row.conversationCount),
    createdAt: row.createdAt.toISOString(),
  });

  return {
    /** The list as JSON text (PostgreSQL builds it in the CampaignView shape); the route sends it as is. */
    listJson: (userId: string): Promise<string> => listReader.listJson(userId),

    /** One of the caller's campaigns in the API shape (404 for anyone else's). */
    async get(userId: string, campaignId: string): Promise<CampaignView> {
      const row = await repo.findOwned(userId, campaignId);
      if (!row) throw notFound('Campaign');
      return toView(row);
    },

    async create(userId: string, input: CreateCampaignInput): Promise<CampaignView> {
      return repo.transaction(async (tx) => {
        await assertCampaignAllowance(repo, tx, userId);
        const row = await repo.insert(
          {
            userId,
            title: input.title,
            description: input.description ?? null,
            // The simple create names the storyteller by the campaign title until the flow says more.
            storytellerName: input.storytellerName ?? input.title,
            storytellerEmail: input.storytellerEmail ?? null,
            relationship: input.relationship ?? 'other',
          },
          tx,
        );
        return toView({ ...row, recordingCount: 0, conversationCount: 0 });
      });
    },
  };
}

/**
 * Inside the creating transaction: lock the caller's profile row, then count, so two concurrent creates
 * cannot both pass the last free slot (the second waits for the first to commit, then counts it).
 */
export async function assertCampaignAllowance(repo: CampaignsRepository, tx: DbOrTx, userId: string): Promise<void> {
  const tier = await lockTier(tx, userId);
  assertAllowance(tier, 'campaigns', await repo.countOf(userId, tx), 1);
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
