// The stored-file quota of spec 000 Limits: 1 GB on the free tier, 10 GB on paid tiers. Every upload route
// of imports, images and upload-url checks it with the bytes it is about to add, inside the transaction
// that writes the row, after locking the account's profile row: two concurrent uploads count one after
// the other and cannot both slip under the limit.
import type { Sql, TransactionSql } from 'postgres';
import { AppError } from '@story/http';

const GB = 1024 * 1024 * 1024;
export const STORAGE_QUOTA_BYTES = { free: 1 * GB, paid: 10 * GB } as const;

export const quotaFor = (tier: string): number => (tier === 'starter' || tier === 'family' || tier === 'premium' ? STORAGE_QUOTA_BYTES.paid : STORAGE_QUOTA_BYTES.free);

const gb = (bytes: number) => `${Math.round((bytes / GB) * 100) / 100} GB`;

/**
 * The account's tier and stored bytes in one statement: recordings, images (the original; thumbnails are
 * small derived copies and not counted), imported files and presigned uploads. Locks the profile row
 * when `lock`.
 */
export async function storedBytes(tx: Sql | TransactionSql, userId: string, lock = false): Promise<{ tier: string; used: number }> {
  const [row] = await tx<{ tier: string | null; used: string }[]>`
    select p.subscription_tier as tier,
           (coalesce((select sum(original_file_size_bytes) from recordings where user_id = ${userId}), 0)
          + coalesce((select sum(size_bytes) from images where user_id = ${userId}), 0)
          + coalesce((select sum(file_size_bytes) from imports where user_id = ${userId}), 0)
          + coalesce((select sum(size_bytes) from user_files where user_id = ${userId}), 0))::text as used
      from profiles p where p.id = ${userId}${lock ? tx` for update of p` : tx``}`;
  return { tier: row?.tier ?? 'free', used: Number(row?.used ?? 0) };
}

/** Throws 403 naming the storage limit when `adding` more bytes would pass the tier's quota. */
export async function assertStorageQuota(tx: Sql | TransactionSql, userId: string, adding: number): Promise<void> {
  const { tier, used } = await storedBytes(tx, userId, true);
  const allowed = quotaFor(tier);
  if (used + adding <= allowed) return;
  const upgrade = allowed < STORAGE_QUOTA_BYTES.paid ? ` The starter plan allows ${gb(STORAGE_QUOTA_BYTES.paid)}.` : '';
  throw new AppError('forbidden', `Your ${tier} plan allows ${gb(allowed)} of stored files.${upgrade}`, {
    details: `tier limit reached: storage (${used} of ${allowed} bytes used, this file needs ${adding})`,
    extra: { limit: 'storage', tier, allowed, used, upgradeTier: allowed < STORAGE_QUOTA_BYTES.paid ? 'starter' : null },
  });
}
