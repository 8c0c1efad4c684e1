// feature_flags and feature_flag_overrides (libs/db schema admin-flags.ts). A flag is written whole:
// the row upserted by key, its overrides replaced, inside the caller's transaction.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { accounts, featureFlagOverrides, featureFlags, one, type Database, type DbOrTx, type FlagAbConfig } from '@story/db';
import { CACHE_CHANNEL, FLAGS_SCOPE } from '@story/flags';

export interface FlagRecord {
  id: string;
  key: string;
  description: string | null;
  enabled: boolean;
  rolloutPercentage: number;
  abConfig: FlagAbConfig | null;
  updatedAt: Date;
  overrides: { userId: string; enabled: boolean; reason: string | null }[];
}

export interface FlagWrite {
  key: string;
  description: string | null;
  enabled: boolean;
  rolloutPercentage: number;
  abConfig: FlagAbConfig | null;
  overrides: { userId: string; enabled: boolean; reason: string | null }[];
}

export function createFeatureFlagsRepository(db: Database) {
  async function withOverrides(rows: (typeof featureFlags.$inferSelect)[], tx: DbOrTx): Promise<FlagRecord[]> {
    if (rows.length === 0) return [];
    const overrides = await tx
      .select({ flagId: featureFlagOverrides.flagId, userId: featureFlagOverrides.userId, enabled: featureFlagOverrides.enabled, reason: featureFlagOverrides.reason })
      .from(featureFlagOverrides)
      .where(inArray(featureFlagOverrides.flagId, rows.map((r) => r.id)))
      .orderBy(asc(featureFlagOverrides.createdAt), asc(featureFlagOverrides.userId));
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      description: r.description,
      enabled: r.enabled,
      rolloutPercentage: r.rolloutPercentage,
      abConfig: r.abConfig ?? null,
      updatedAt: r.updatedAt,
      overrides: overrides.filter((o) => o.flagId === r.id).map(({ userId, enabled, reason }) => ({ userId, enabled, reason })),
    }));
  }

  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    async list(tx: DbOrTx = db): Promise<FlagRecord[]> {
      return withOverrides(await tx.select().from(featureFlags).orderBy(asc(featureFlags.key)), tx);
    },

    /** The flag by key, its row locked for the rest of the transaction. */
    async findForUpdate(key: string, tx: DbOrTx = db): Promise<FlagRecord | undefined> {
      const rows = await tx.select().from(featureFlags).where(eq(featureFlags.key, key)).for('update');
      return (await withOverrides(rows, tx))[0];
    },

    /** The ids among `ids` that are accounts. */
    async existingUsers(ids: string[], tx: DbOrTx = db): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await tx.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, ids));
      return new Set(rows.map((r) => r.id));
    },

    async save(flag: FlagWrite, actorId: string, tx: DbOrTx = db): Promise<FlagRecord> {
      const values = { key: flag.key, description: flag.description, enabled: flag.enabled, rolloutPercentage: flag.rolloutPercentage, abConfig: flag.abConfig, updatedBy: actorId };
      const row = one(
        await tx
          .insert(featureFlags)
          .values(values)
          .onConflictDoUpdate({ target: featureFlags.key, set: { ...values, updatedAt: new Date() } })
          .returning(),
      );
      await tx.delete(featureFlagOverrides).where(eq(featureFlagOverrides.flagId, row.id));
      if (flag.overrides.length > 0) {
        await tx.insert(featureFlagOverrides).values(flag.overrides.map((o) => ({ flagId: row.id, userId: o.userId, enabled: o.enabled, reason: o.reason, createdBy: actorId })));
      }
      return one(await withOverrides([row], tx));
    },

    /** NOTIFY every process's cache bus; sent inside the transaction, it is delivered when it commits. */
    async notifyFlagsChanged(tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`select pg_notify(${CACHE_CHANNEL}, ${FLAGS_SCOPE})`);
    },
  };
}

export type FeatureFlagsRepository = ReturnType<typeof createFeatureFlagsRepository>;
