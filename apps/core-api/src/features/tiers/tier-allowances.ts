// Tier allowances of spec 000 Limits, enforced with one 403 shape that names the limit and the tier that
// lifts it. Premium has no values of its own in the spec ("not built into the listed allowances"), so it
// gets the family tier's allowances rather than inventing numbers.
import type { Sql } from 'postgres';
import type { DbOrTx } from '@story/db';
import { AppError } from '@story/http';
import { lockedStoredTier, storedTier } from './tiers.repository';

export const TIERS = ['free', 'starter', 'family', 'premium'] as const;
export type Tier = (typeof TIERS)[number];

export interface Allowances {
  campaigns: number | null;
  promptsPerCampaign: number | null;
  familyMembers: number | null;
  voiceMinutes: number | null;
  bookPages: number | null;
}
export type AllowanceName = keyof Allowances;

/** null = unlimited. */
export const TIER_ALLOWANCES: Readonly<Record<Tier, Allowances>> = {
  free: { campaigns: 1, promptsPerCampaign: 10, familyMembers: 3, voiceMinutes: 30, bookPages: 20 },
  starter: { campaigns: 3, promptsPerCampaign: 50, familyMembers: 10, voiceMinutes: 180, bookPages: 100 },
  family: { campaigns: null, promptsPerCampaign: null, familyMembers: 25, voiceMinutes: 600, bookPages: null },
  premium: { campaigns: null, promptsPerCampaign: null, familyMembers: 25, voiceMinutes: 600, bookPages: null },
};

const LABEL: Record<AllowanceName, string> = {
  campaigns: 'campaigns',
  promptsPerCampaign: 'prompts per campaign',
  familyMembers: 'family members',
  voiceMinutes: 'voice minutes',
  bookPages: 'book pages',
};

/** A stored tier as one of TIERS: free when missing or unknown. */
const asTier = (tier: string | null): Tier => ((TIERS as readonly string[]).includes(tier ?? '') ? (tier as Tier) : 'free');

/** The caller's subscription tier (profiles.subscription_tier; free when unknown). */
export async function tierOf(sql: Sql, userId: string): Promise<Tier> {
  return asTier(await storedTier(sql, userId));
}

/**
 * Inside a transaction: lock the account's profile row (FOR UPDATE) and return its tier. Every
 * "count, then add" of an allowance takes this lock first, so two concurrent requests of one account
 * count one after the other and cannot both slip under the limit.
 */
export async function lockTier(tx: DbOrTx, userId: string): Promise<Tier> {
  return asTier(await lockedStoredTier(tx, userId));
}

/** The cheapest tier whose allowance admits `total`, if any. */
export function tierThatLifts(limit: AllowanceName, total: number): Tier | null {
  for (const tier of TIERS) {
    const allowed = TIER_ALLOWANCES[tier][limit];
    if (allowed === null || total <= allowed) return tier;
  }
  return null;
}

/**
 * Throws 403 when `used + adding` exceeds the tier's allowance. The message names the limit, the tier's
 * number and the tier that lifts it, so the client can say exactly what to do.
 */
export function assertAllowance(tier: Tier, limit: AllowanceName, used: number, adding = 1): void {
  const allowed = TIER_ALLOWANCES[tier][limit];
  const total = used + adding;
  if (allowed === null || total <= allowed) return;
  const lifts = tierThatLifts(limit, total);
  const upgrade = lifts ? ` The ${lifts} plan allows ${TIER_ALLOWANCES[lifts][limit] ?? 'unlimited'} ${LABEL[limit]}.` : '';
  throw new AppError('forbidden', `Your ${tier} plan allows ${allowed} ${LABEL[limit]}.${upgrade}`, {
    details: `tier limit reached: ${LABEL[limit]} (${used} of ${allowed} used)`,
    extra: { limit, tier, allowed, used, upgradeTier: lifts },
  });
}

/**
 * AI helper requests (/api/ai/*) per UTC day and per UTC month, counted in ai_request_counters; past either
 * the helpers answer 429 {success: false, error, limits, usage} (spec 000 Errors 3). The spec gives no
 * numbers: these keep a free account's helpers useful for a writing session a day while bounding what a
 * tier costs when a real model is configured (null = unlimited).
 */
export interface AiAllowances {
  aiRequestsPerDay: number | null;
  aiRequestsPerMonth: number | null;
}
export const TIER_AI_ALLOWANCES: Readonly<Record<Tier, AiAllowances>> = {
  free: { aiRequestsPerDay: 20, aiRequestsPerMonth: 200 },
  starter: { aiRequestsPerDay: 100, aiRequestsPerMonth: 1500 },
  family: { aiRequestsPerDay: 300, aiRequestsPerMonth: 5000 },
  premium: { aiRequestsPerDay: 1000, aiRequestsPerMonth: 20000 },
};
