// What a gift can be and what it costs (CONTRACTS §9): planId is a paid tier, optionally with a term in
// months (`family-12m`). Prices per month are spec 000's tier table; premium has no price in the spec,
// so the project prices it (below) and says so here. Redemption codes: 128 random bits, base32.
import { createHash, randomBytes } from 'node:crypto';
import { badRequest } from '@story/http';

export const GIFT_TIERS = ['starter', 'family', 'premium'] as const;
export type GiftTier = (typeof GIFT_TIERS)[number];
export const GIFT_TERMS_MONTHS = [1, 3, 6, 12, 24] as const;
/** A gift without a term in its planId grants a year. */
export const DEFAULT_TERM_MONTHS = 12;
/** How long a purchased code can be redeemed (project decision). */
export const REDEEM_VALIDITY_MONTHS = 12;

/** Cents per month: starter and family from spec 000 Limits; premium is the project's price. */
export const MONTHLY_PRICE_CENTS: Readonly<Record<GiftTier, number>> = { starter: 999, family: 1999, premium: 2999 };

/** Rank for "never downgrade by redeeming": free < starter < family < premium. */
export const TIER_RANK: Readonly<Record<string, number>> = { free: 0, starter: 1, family: 2, premium: 3 };

export interface GiftPlan {
  planId: string;
  tier: GiftTier;
  months: number;
  amountCents: number;
  currency: 'usd';
}

const PLAN = /^(starter|family|premium)(?:-(\d{1,2})m)?$/;

/** Parse a planId, or 400 naming planId. */
export function parseGiftPlan(raw: string): GiftPlan {
  const planId = raw.trim().toLowerCase();
  const m = PLAN.exec(planId);
  const months = m?.[2] ? Number(m[2]) : DEFAULT_TERM_MONTHS;
  if (!m || !(GIFT_TERMS_MONTHS as readonly number[]).includes(months)) {
    throw badRequest(`Invalid planId: use one of ${GIFT_TIERS.join(', ')}, optionally with a term of ${GIFT_TERMS_MONTHS.join(', ')} months (e.g. family-12m)`, { field: 'planId' });
  }
  const tier = m[1] as GiftTier;
  return { planId, tier, months, amountCents: MONTHLY_PRICE_CENTS[tier] * months, currency: 'usd' };
}

/** The plan of a stored gift row (its plan_id was parsed at purchase). */
export const planOf = (planId: string): GiftPlan => parseGiftPlan(planId);

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 128 random bits as 26 base32 letters, shown in groups of four for reading aloud or typing. */
export function newRedemptionCode(): string {
  const bytes = randomBytes(16);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return (out.match(/.{1,4}/g) ?? [out]).join('-');
}

/** What the recipient typed, without case, spaces or dashes; null when it cannot be a code. */
export function normalizeCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z2-7]{26}$/.test(code) ? code : null;
}

/** Only this hash is stored (gifts.code_hash, unique): the code itself lives in the recipient's email. */
export const hashCode = (normalized: string) => createHash('sha256').update(normalized).digest('hex');

/** The stored hash of a code this module made (its dashes are only for reading). */
export const hashNewCode = (code: string) => hashCode(code.replace(/-/g, ''));

export function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}
