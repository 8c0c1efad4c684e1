import { abTestResults, erf, normalCdf, twoProportionZTest } from './ab-tests.stats';

it('approximates erf and the normal CDF', () => {
  expect(erf(0)).toBeCloseTo(0, 6);
  expect(erf(1)).toBeCloseTo(0.8427008, 6);
  expect(erf(-1)).toBeCloseTo(-0.8427008, 6);
  expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
  expect(normalCdf(0)).toBeCloseTo(0.5, 7);
});

it('runs the two-proportion z-test: 200/1000 vs 250/1000 opens is significant (z ≈ 2.68)', () => {
  const { z, pValue } = twoProportionZTest(200, 1000, 250, 1000);
  expect(z).toBeCloseTo(2.677, 3);
  expect(pValue).toBeCloseTo(0.00743, 4);
  const r = abTestResults({ sent: 1000, opened: 200, clicked: 50 }, { sent: 1000, opened: 250, clicked: 52 }, 'open_rate');
  expect(r).toEqual({
    base_stats: { sent: 1000, opened: 200, clicked: 50, open_rate: 0.2, click_rate: 0.05 },
    variant_stats: { sent: 1000, opened: 250, clicked: 52, open_rate: 0.25, click_rate: 0.052 },
    winner: 'variant',
    confidence: 0.9926,
    is_significant: true,
    improvement: '25.00%',
    total_samples: 2000,
  });
});

it('names no winner when the difference is not significant, and judges by the chosen metric', () => {
  const clicks = abTestResults({ sent: 1000, opened: 200, clicked: 50 }, { sent: 1000, opened: 250, clicked: 52 }, 'click_rate');
  expect(clicks).toMatchObject({ winner: null, is_significant: false, improvement: '4.00%' });
  expect(clicks.confidence).toBeLessThan(0.95);
  const baseWins = abTestResults({ sent: 1000, opened: 250, clicked: 0 }, { sent: 1000, opened: 200, clicked: 0 }, 'open_rate');
  expect(baseWins).toMatchObject({ winner: 'base', is_significant: true, improvement: '-20.00%' });
});

it('handles empty arms without dividing by zero', () => {
  expect(twoProportionZTest(0, 0, 0, 0)).toEqual({ z: 0, pValue: 1 });
  expect(abTestResults({ sent: 0, opened: 0, clicked: 0 }, { sent: 0, opened: 0, clicked: 0 }, 'open_rate')).toEqual({
    base_stats: { sent: 0, opened: 0, clicked: 0, open_rate: 0, click_rate: 0 },
    variant_stats: { sent: 0, opened: 0, clicked: 0, open_rate: 0, click_rate: 0 },
    winner: null,
    confidence: 0,
    is_significant: false,
    improvement: '0.00%',
    total_samples: 0,
  });
});
