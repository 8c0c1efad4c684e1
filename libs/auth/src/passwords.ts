// Password rules of CONTRACTS §2 and argon2id hashing.
import argon2 from 'argon2';

export const PASSWORD_RULE = 'Password must be at least 8 characters and contain at least one letter and one digit';

export function isAcceptablePassword(password: string): boolean {
  return password.length >= 8 && /\p{L}/u.test(password) && /\d/.test(password);
}

// OWASP-recommended argon2id parameters (19 MiB, 2 iterations) keep a sign-in near 20 ms on 2 cores.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A real hash to verify against for unknown emails, so timing does not reveal which emails exist. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> => (dummyHash ??= hashPassword('not-a-real-password-1'));
