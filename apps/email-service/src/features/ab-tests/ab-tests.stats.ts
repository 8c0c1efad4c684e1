// A/B test statistics: per-arm rates and a two-proportion z-test on the success metric. Pure functions,
// so the numbers can be checked against textbook examples without a database.
import type { AbSuccessMetric, AbTestResults, AbVariantStats } from '@story/db';

export interface ArmCounts {
  sent: number;
  opened: number;
  clicked: number;
}

/** Error function, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
export function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const ax = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * ax);
  const poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  return sign * (1 - poly * Math.exp(-ax * ax));
}

/** Standard normal cumulative distribution. */
export const normalCdf = (z: number): number => 0.5 * (1 + erf(z / Math.SQRT2));

export interface ZTest {
  z: number;
  pValue: number;
}

/** Two-sided two-proportion z-test with pooled variance; z = 0 and p = 1 when it is undefined. */
export function twoProportionZTest(successes1: number, n1: number, successes2: number, n2: number): ZTest {
  if (n1 <= 0 || n2 <= 0) return { z: 0, pValue: 1 };
  const p1 = successes1 / n1;
  const p2 = successes2 / n2;
  const pooled = (successes1 + successes2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return { z: 0, pValue: 1 };
  const z = (p2 - p1) / se;
  const pValue = Math.min(1, Math.max(0, 2 * (1 - normalCdf(Math.abs(z)))));
  return { z, pValue };
}

const armStats = (c: ArmCounts): AbVariantStats => ({
  sent: c.sent,
  opened: c.opened,
  clicked: c.clicked,
  open_rate: c.sent > 0 ? c.opened / c.sent : 0,
  click_rate: c.sent > 0 ? c.clicked / c.sent : 0,
});

/** The results object of spec 001: winner only when the difference is significant at 5 percent. */
export function abTestResults(base: ArmCounts, variant: ArmCounts, metric: AbSuccessMetric): AbTestResults {
  const b = armStats(base);
  const v = armStats(variant);
  const successes = (c: ArmCounts) => (metric === 'click_rate' ? c.clicked : c.opened);
  const { pValue } = twoProportionZTest(successes(base), base.sent, successes(variant), variant.sent);
  const isSignificant = pValue < 0.05;
  const rb = b[metric];
  const rv = v[metric];
  return {
    base_stats: b,
    variant_stats: v,
    winner: isSignificant && rv !== rb ? (rv > rb ? 'variant' : 'base') : null,
    confidence: Math.round((1 - pValue) * 10_000) / 10_000,
    is_significant: isSignificant,
    // Relative change of the variant over the base; undefined (shown as 0.00%) while the base rate is 0.
    improvement: `${rb > 0 ? (((rv - rb) / rb) * 100).toFixed(2) : '0.00'}%`,
    total_samples: base.sent + variant.sent,
  };
}
