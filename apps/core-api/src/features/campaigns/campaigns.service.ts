// Campaigns in the API shape of spec 000 (title, description, recordingCount, conversationCount,
// createdAt) over the stored shape. Only the caller's campaigns are ever read. Creating one counts against
// the tier's campaigns allowance.
import { and, desc, eq, sql } from 'drizzle-orm';
import { campaigns, one, type Database, type DbOrTx } from '@story/db';
import { notFound } from '@story/http';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';

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

export function createCampaignsService({ db }: { db: Database }) {
  // Counts are correlated subqueries on indexed campaign_id columns: one round trip for the page.
  // The outer column is qualified by hand: in a single-table select Drizzle renders ${campaigns.id} as a bare
  // "id", which would bind to the inner table's id (STACK-NOTES) and count nothing.
  const recordingCount = sql<number>`(select count(*)::int from recordings r where r.campaign_id = "campaigns"."id")`;
  const conversationCount = sql<number>`(select count(*)::int from conversations v where v.campaign_id = "campaigns"."id")`;

  const toView = (row: { id: string; title: string; description: string | null; createdAt: Date; recordingCount: number; conversationCount: number }): CampaignView => ({
    id: row.id,
    title: row.title,
    description: row.description ?? '',
    recordingCount: Number(row.recordingCount),
    conversationCount: Number(row.conversationCount),
    createdAt: row.createdAt.toISOString(),
  });

  // Built once and prepared per connection: the list is the hottest read of the API.
  const listQuery = db
    .select({ id: campaigns.id, title: campaigns.title, description: campaigns.description, createdAt: campaigns.createdAt, recordingCount, conversationCount })
    .from(campaigns)
    .where(eq(campaigns.userId, sql.placeholder('userId')))
    .orderBy(desc(campaigns.createdAt))
    .prepare('campaigns_list');

  return {
    async list(userId: string): Promise<CampaignView[]> {
      const rows = await listQuery.execute({ userId });
      return rows.map(toView);
    },

    /** One of the caller's campaigns in the API shape (404 for anyone else's). */
    async get(userId: string, campaignId: string): Promise<CampaignView> {
      const [row] = await db
        .select({ id: campaigns.id, title: campaigns.title, description: campaigns.description, createdAt: campaigns.createdAt, recordingCount, conversationCount })
        .from(campaigns)
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.userId, userId)));
      if (!row) throw notFound('Campaign');
      return toView(row);
    },

    async create(userId: string, input: CreateCampaignInput): Promise<CampaignView> {
      return db.transaction(async (tx) => {
        await assertCampaignAllowance(tx, userId);
        const row = one(
          await tx
            .insert(campaigns)
            .values({
              userId,
              title: input.title,
              description: input.description ?? null,
              // The simple create names the storyteller by the campaign title until the flow says more.
              storytellerName: input.storytellerName ?? input.title,
              storytellerEmail: input.storytellerEmail ?? null,
              relationship: input.relationship ?? 'other',
            })
            .returning({ id: campaigns.id, title: campaigns.title, description: campaigns.description, createdAt: campaigns.createdAt }),
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
export async function assertCampaignAllowance(tx: DbOrTx, userId: string): Promise<void> {
  const tier = await lockTier(tx, userId);
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(campaigns).where(eq(campaigns.userId, userId));
  assertAllowance(tier, 'campaigns', row?.n ?? 0, 1);
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
