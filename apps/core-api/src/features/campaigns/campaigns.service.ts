// Campaigns in the API shape of spec 000 (title, description, recordingCount, conversationCount,
// createdAt) over the stored shape. Only the caller's campaigns are ever read.
import { desc, eq, sql } from 'drizzle-orm';
import { campaigns, one, type Database } from '@story/db';

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
  const recordingCount = sql<number>`(select count(*)::int from recordings r where r.campaign_id = ${campaigns.id})`;
  const conversationCount = sql<number>`(select count(*)::int from conversations v where v.campaign_id = ${campaigns.id})`;

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

    async create(userId: string, input: CreateCampaignInput): Promise<CampaignView> {
      const row = one(
        await db
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
    },
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
