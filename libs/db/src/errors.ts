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

/** postgres.js's own connection errors (no SQLSTATE): the server is gone, refused or too slow to answer. */
const CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The database is unreachable or going down, not the request at fault: a socket error or postgres.js
 * connection error, class 08 (connection exception), or 57P01-57P03 (shutdown, crash, starting up).
 * Services answer 503 for these, so a restart of PostgreSQL is a brief outage, not a burst of 500s.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
