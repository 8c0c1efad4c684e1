// The one column tier decisions read: profiles.subscription_tier (CONVENTIONS 7). Two forms because the
// callers hold two kinds of handle: a postgres.js pool or transaction, and a Drizzle transaction.
import type { Sql } from 'postgres';
import { eq } from 'drizzle-orm';
import { profiles, type DbOrTx } from '@story/db';

/** The stored tier text, or null when the profile is missing. */
export async function storedTier(sql: Sql, userId: string): Promise<string | null> {
  const [row] = await sql<{ tier: string | null }[]>`select subscription_tier as tier from profiles where id = ${userId}`;
  return row?.tier ?? null;
}

/** The stored tier text with the profile row locked FOR UPDATE until the transaction ends. */
export async function lockedStoredTier(tx: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await tx.select({ tier: profiles.subscriptionTier }).from(profiles).where(eq(profiles.id, userId)).for('update');
  return row?.tier ?? null;
}
