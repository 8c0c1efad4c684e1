// Deterministic A/B arm assignment: the same user always lands in the same arm of a test, without storing
// an assignment row, and different tests split independently because the test id is part of the hash.
import { createHash } from 'node:crypto';

export type AbArm = 'base' | 'variant';

/** 'variant' for about testPercentage percent of userKeys, stable per (testId, userKey). */
export function abArmFor(testId: string, userKey: string, testPercentage: number): AbArm {
  const digest = createHash('sha256').update(`${testId}:${userKey}`).digest();
  const bucket = (digest.readUInt32BE(0) / 2 ** 32) * 100;
  return bucket < testPercentage ? 'variant' : 'base';
}
