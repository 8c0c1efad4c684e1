// The SQL of campaigns (CONVENTIONS 7), on Drizzle's builder: the API list with its counts, one campaign,
// create, and the column updates the create flow makes.
import { and, desc, eq, sql } from 'drizzle-orm';
import { campaigns, one, type Database, type DbOrTx } from '@story/db';

export type CampaignRow = typeof campaigns.$inferSelect;

export interface CampaignListRow {
  id: string;
  title: string;
  description: string | null;
  createdAt: Date;
  recordingCount: number;
  conversationCount: number;
}

export function createCampaignsRepository(db: Database) {
  // Counts are correlated subqueries on indexed campaign_id columns: one round trip for the page.
  // The outer column is qualified by hand: in a single-table select Drizzle renders ${campaigns.id} as a bare
  // "id", which would bind to the inner table's id (STACK-NOTES) and count nothing.
  const recordingCount = sql<number>`(select count(*)::int from recordings r where r.campaign_id = "campaigns"."id")`;
  const conversationCount = sql<number>`(select count(*)::int from conversations v where v.campaign_id = "campaigns"."id")`;
  const listColumns = { id: campaigns.id, title: campaigns.title, description: campaigns.description, createdAt: campaigns.createdAt, recordingCount, conversationCount };

  // Built once and prepared per connection: the list is the hottest read of the API.
  const listQuery = db.select(listColumns).from(campaigns).where(eq(campaigns.userId, sql.placeholder('userId'))).orderBy(desc(campaigns.createdAt)).prepare('campaigns_list');

  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    list: (userId: string): Promise<CampaignListRow[]> => listQuery.execute({ userId }),

    /** One of the owner's campaigns with its counts (undefined for anyone else's). */
    async findOwned(userId: string, campaignId: string, tx: DbOrTx = db): Promise<CampaignListRow | undefined> {
      const [row] = await tx.select(listColumns).from(campaigns).where(and(eq(campaigns.id, campaignId), eq(campaigns.userId, userId)));
      return row;
    },

    async findById(campaignId: string, tx: DbOrTx = db): Promise<CampaignRow> {
      return one(await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)));
    },

    async countOf(userId: string, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(campaigns).where(eq(campaigns.userId, userId));
      return row?.n ?? 0;
    },

    async insert(values: typeof campaigns.$inferInsert, tx: DbOrTx = db) {
      return one(await tx.insert(campaigns).values(values).returning({ id: campaigns.id, title: campaigns.title, description: campaigns.description, createdAt: campaigns.createdAt }));
    },

    async update(campaignId: string, changes: Partial<typeof campaigns.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(campaigns).set({ ...changes, updatedAt: sql`now()` }).where(eq(campaigns.id, campaignId));
    },
  };
}

export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
