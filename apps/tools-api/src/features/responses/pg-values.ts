// The shared DbClient is wrapped by drizzle, whose driver turns off postgres.js's own conversion of json
// and date/time values: raw queries send JSON as text (this helper) and dates as ISO strings, and read
// timestamps back as text (shared/dates.ts converts them).

/** A value for a jsonb parameter (write `${jsonb(x)}::jsonb`). */
export const jsonb = (value: unknown): string => JSON.stringify(value);
