import { abArmFor } from './ab-split';

it('gives the same arm for the same test and user', () => {
  for (let i = 0; i < 100; i++) expect(abArmFor('test-1', `user-${i}`, 50)).toBe(abArmFor('test-1', `user-${i}`, 50));
});

it.each([10, 25, 50, 90])('splits 10,000 keys within 2 points of %i%%', (pct) => {
  let variants = 0;
  for (let i = 0; i < 10_000; i++) if (abArmFor('8f1c0f5e-test', `user-${i}@example.test`, pct) === 'variant') variants++;
  expect(Math.abs((variants / 10_000) * 100 - pct)).toBeLessThanOrEqual(2);
});

it('never picks the variant at 0% and always at 100%', () => {
  expect(abArmFor('t', 'u', 0)).toBe('base');
  expect(abArmFor('t', 'u', 100)).toBe('variant');
});
