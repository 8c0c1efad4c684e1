// Billing overview (dashboard billing; CONTRACTS §7 business {monthlyRevenue, tiers}) from the subscription
// rows in profiles: accounts per tier, paying (status active) per tier, and monthly recurring revenue at the
// tier prices of spec 000 Limits. Invoices add what was actually paid per month.
import { sql } from 'drizzle-orm';
import { SUBSCRIPTION_TIERS, type Database, type SubscriptionTier } from '@story/db';

/**
 * Monthly prices of spec 000 "Tier allowances": free 0, starter 9.99, family 19.99. The spec lists no price
 * for premium ("Premium tier values: not built into the listed allowances"), so premium subscriptions are
 * counted but bring no revenue here, and the answer says how many were left unpriced.
 */
export const TIER_MONTHLY_PRICE_USD: Record<SubscriptionTier, number | null> = { free: 0, starter: 9.99, family: 19.99, premium: null };

type TierCounts = Record<SubscriptionTier, number>;
const zero = (): TierCounts => ({ free: 0, starter: 0, family: 0, premium: 0 });

export async function readBillingSummary(db: Database) {
  const rows = await db.execute<{ tier: SubscriptionTier; accounts: number; paying: number; trial: number; cancelled: number }>(sql`
    select subscription_tier as tier,
           count(*)::int as accounts,
           (count(*) filter (where subscription_status = 'active'))::int as paying,
           (count(*) filter (where subscription_status = 'trial'))::int as trial,
           (count(*) filter (where subscription_status = 'cancelled'))::int as cancelled
    from profiles group by subscription_tier`);
  const [tiers, paying, trial, cancelled] = [zero(), zero(), zero(), zero()];
  for (const r of rows) {
    tiers[r.tier] = r.accounts;
    paying[r.tier] = r.paying;
    trial[r.tier] = r.trial;
    cancelled[r.tier] = r.cancelled;
  }
  // Cents, so 3 x 9.99 is exactly 29.97.
  const cents = SUBSCRIPTION_TIERS.reduce((sum, t) => sum + paying[t] * Math.round((TIER_MONTHLY_PRICE_USD[t] ?? 0) * 100), 0);
  const unpriced = Object.fromEntries(SUBSCRIPTION_TIERS.filter((t) => TIER_MONTHLY_PRICE_USD[t] === null).map((t) => [t, paying[t]]));
  return { monthlyRevenue: cents / 100, currency: 'usd', tiers, paying, trial, cancelled, prices: TIER_MONTHLY_PRICE_USD, unpriced };
}

export function createBillingService({ db }: { db: Database }) {
  return {
    async overview() {
      const summary = await readBillingSummary(db);
      const invoiced = await db.execute<{ month: string; paid_cents: number; invoices: number }>(sql`
        select to_char(date_trunc('month', paid_at at time zone 'UTC'), 'YYYY-MM') as month, sum(amount_cents)::bigint::int as paid_cents, count(*)::int as invoices
        from invoices where status = 'paid' and paid_at >= date_trunc('month', now() at time zone 'UTC') - interval '11 months'
        group by 1 order by 1`);
      return { ...summary, invoicedByMonth: invoiced.map((r) => ({ month: r.month, paid: r.paid_cents / 100, invoices: r.invoices })) };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
