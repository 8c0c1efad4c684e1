// PostgreSQL error classification for the service layer (drizzle wraps driver errors in `cause`).
interface PgLikeError {
  code?: string;
  constraint_name?: string;
  constraint?: string;
  cause?: unknown;
}

function pgError(err: unknown): PgLikeError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as PgLikeError;
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
    current = e.cause;
  }
  return undefined;
}

/** A unique constraint failed (optionally: this one). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  if (e?.code !== '23505') return false;
  return constraint === undefined || (e.constraint_name ?? e.constraint) === constraint;
}

/** A foreign key failed: the referenced row does not exist. */
export const isForeignKeyViolation = (err: unknown): boolean => pgError(err)?.code === '23503';

/** A CHECK constraint failed. */
export const isCheckViolation = (err: unknown): boolean => pgError(err)?.code === '23514';

/**
 * PostgreSQL refused a value the client sent (class 22, data exception: 22021 NUL in text, 22P05
 * untranslatable character, 22P02 invalid text representation, 22001 too long, 22003 out of range,
 * 22007/22008 bad date) or a CHECK constraint (23514): the request was bad, not the server.
 */
export function isInvalidInputError(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code !== undefined && (code.startsWith('22') || code === '23514');
}
