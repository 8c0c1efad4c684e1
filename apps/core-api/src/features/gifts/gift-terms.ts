// The end of a gift's term (spec 000: a gift upgrades the redeemer "for the gift's term"). A recurring
// job of the core runner finds accounts whose plan came from gifts whose terms have all passed and sets
// them to the best tier a still-running gift grants, else free (status cancelled). Accounts with a
// payment-processor customer id are left alone: their plan is the processor's to end.
import { sql } from 'drizzle-orm';
import type { Database } from '@story/db';
import { defineJob, type JobRunner } from '@story/jobs';

export const GIFT_TERM_SWEEP = 'gift.term-sweep';
/** Terms end on a calendar date; an hour's lag is invisible and keeps the sweep cheap. */
const SWEEP_SECONDS = 3600;

const bestActiveTier = (userId: string) => sql`
  select split_part(g.plan_id, '-', 1) as tier from gifts g
  where g.redeemed_by = ${userId} and g.status = 'redeemed' and g.term_ends_at > now()
  order by array_position(array['starter', 'family', 'premium'], split_part(g.plan_id, '-', 1)) desc
  limit 1`;

/** Downgrade every lapsed account; returns how many changed. */
export async function endLapsedGiftTerms(db: Database): Promise<number> {
  const candidates = await db.execute<{ id: string }>(sql`
    select p.id from profiles p
    where p.payment_customer_id is null and p.subscription_tier <> 'free'
      and exists (select 1 from gifts g where g.redeemed_by = p.id and g.status = 'redeemed' and g.term_ends_at <= now())
      and not exists (select 1 from gifts g where g.redeemed_by = p.id and g.status = 'redeemed' and g.term_ends_at > now()
                        and split_part(g.plan_id, '-', 1) = p.subscription_tier)`);
  let changed = 0;
  for (const { id } of candidates) {
    // One account per transaction: its profile is locked first (as redeem does), and the gifts are read
    // after the lock, so a redemption that just committed is seen and never undone.
    changed += await db.transaction(async (tx) => {
      const [profile] = await tx.execute<{ tier: string; customer: string | null }>(
        sql`select subscription_tier as tier, payment_customer_id as customer from profiles where id = ${id} for update`,
      );
      if (!profile || profile.customer) return 0;
      const [best] = await tx.execute<{ tier: string }>(bestActiveTier(id));
      const tier = best?.tier ?? 'free';
      if (tier === profile.tier) return 0;
      await tx.execute(sql`update profiles set subscription_tier = ${tier}, subscription_status = ${best ? 'active' : 'cancelled'}, updated_at = now() where id = ${id}`);
      return 1;
    });
  }
  return changed;
}

export function defineGiftTermSweep(jobs: Pick<JobRunner, 'define'>, { db }: { db: Database }): void {
  jobs.define(
    defineJob({
      kind: GIFT_TERM_SWEEP,
      parse: () => ({}),
      everySeconds: SWEEP_SECONDS,
      run: async () => ({ downgraded: await endLapsedGiftTerms(db) }),
    }),
  );
}
