// Who a feature flag reaches (CONTRACTS §7), computed with the evaluator itself (libs/flags evaluateFlag:
// override, then the switch, then stableHash(key:user) % 100 < rolloutPercentage, then the variant), over
// every account. The account ids are read once a minute (a page of 100,000 ids is about a tenth of a
// second); evaluating them all is a few milliseconds, so any percentage previews at once.
import { evaluateFlag, type FlagRule } from '@story/flags';
import { createSnapshotCache } from './snapshot-cache';

export interface FlagDraft {
  key: string;
  enabled: boolean;
  rolloutPercentage: number;
  overrides: { userId: string; enabled: boolean }[];
  variants: { name: string; weight: number }[] | null;
}

export interface RolloutPreview {
  reached: number;
  total: number;
  /** Accounts per variant among those reached (A/B flags only). */
  variants: Record<string, number> | null;
  /** Up to `sampleSize` reached account ids, in a stable order. */
  sample: string[];
  /** When the account list was read. */
  populationAt: Date;
}

export function createFlagPreview({ accountIds, ttlMs = 60_000 }: { accountIds: () => Promise<string[]>; ttlMs?: number }) {
  const population = createSnapshotCache(accountIds, { ttlMs });
  return {
    async preview(draft: FlagDraft, sampleSize = 10): Promise<RolloutPreview> {
      const { value: ids, at } = await population.get();
      const rule: FlagRule = {
        key: draft.key,
        enabled: draft.enabled,
        rolloutPercentage: draft.rolloutPercentage,
        variants: draft.variants && draft.variants.length > 0 ? draft.variants : null,
        overrides: new Map(draft.overrides.map((o) => [o.userId, o.enabled])),
      };
      let reached = 0;
      const variants: Record<string, number> | null = rule.variants ? Object.fromEntries(rule.variants.map((v) => [v.name, 0])) : null;
      const sample: string[] = [];
      for (const id of ids) {
        const value = evaluateFlag(rule, id);
        if (value === false) continue;
        reached++;
        if (variants && typeof value === 'string') variants[value] = (variants[value] ?? 0) + 1;
        if (sample.length < sampleSize) sample.push(id);
      }
      return { reached, total: ids.length, variants, sample, populationAt: at };
    },
    clear: () => population.clear(),
  };
}

export type FlagPreview = ReturnType<typeof createFlagPreview>;
