// IANA time zones as this Node's ICU knows them. Intl.supportedValuesOf('timeZone') lists canonical
// names only, so an alias such as Europe/Kiev or US/Eastern is also accepted when Intl.DateTimeFormat
// takes it; "Mars/Olympus" is neither and is refused.
import { z } from 'zod';

const CANONICAL = new Set<string>(Intl.supportedValuesOf('timeZone'));
CANONICAL.add('UTC');

export function isIanaTimeZone(value: string): boolean {
  if (CANONICAL.has(value)) return true;
  // Offsets such as +01:00 are accepted by DateTimeFormat but are not IANA names.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timezoneField = z
  .string()
  .max(100, 'at most 100 characters')
  .refine(isIanaTimeZone, { message: 'must be an IANA time zone such as America/New_York or Europe/Berlin' });
