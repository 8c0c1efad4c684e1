// Query-string values arrive as strings; these parse them so a bad value is 400 INVALID_INPUT naming the
// plain field (limit, not query.limit), as the browse routes do. Shared by responses, search and analytics.
import { toolsError } from '../../shared/errors';

export function intParam(value: string | undefined, field: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) throw toolsError.invalidInput(field, `${field} must be a whole number between ${min} and ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw toolsError.invalidInput(field, `${field} must be between ${min} and ${max}`);
  return n;
}

export function boolParam(value: string | undefined, field: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw toolsError.invalidInput(field, `${field} must be true or false`);
}

export function enumParam<T extends string>(value: string | undefined, field: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw toolsError.invalidInput(field, `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}
