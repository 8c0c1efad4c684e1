// The SQL of consent_records (append-only history; the newest row per user is the current answer).
import { desc, eq, sql } from 'drizzle-orm';
import { consentRecords, one, type Database, type DbOrTx } from '@story/db';

export interface ConsentRow {
  marketing: boolean;
  analytics: boolean;
  thirdParty: boolean;
  source: string | null;
  createdAt: Date;
}

const columns = {
  marketing: consentRecords.marketing,
  analytics: consentRecords.analytics,
  thirdParty: consentRecords.thirdParty,
  source: consentRecords.source,
  createdAt: consentRecords.createdAt,
};

export function createConsentRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    /** Serialise one user's updates: each reads the newest row and appends the merged one. */
    async lockUser(userId: string, tx: DbOrTx): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'consent:' + userId}, 0))`);
    },

    async latest(userId: string, tx: DbOrTx = db): Promise<ConsentRow | undefined> {
      const [row] = await tx.select(columns).from(consentRecords).where(eq(consentRecords.userId, userId)).orderBy(desc(consentRecords.createdAt), desc(consentRecords.id)).limit(1);
      return row;
    },

    async history(userId: string, limit: number, tx: DbOrTx = db): Promise<ConsentRow[]> {
      return tx.select(columns).from(consentRecords).where(eq(consentRecords.userId, userId)).orderBy(desc(consentRecords.createdAt), desc(consentRecords.id)).limit(limit);
    },

    async append(values: { userId: string; marketing: boolean; analytics: boolean; thirdParty: boolean; source: string; ipPrefix: string | null }, tx: DbOrTx = db): Promise<ConsentRow> {
      return one(await tx.insert(consentRecords).values({ ...values, createdAt: sql`clock_timestamp()` }).returning(columns));
    },
  };
}
