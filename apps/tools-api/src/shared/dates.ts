// Drizzle's postgres-js driver turns off postgres.js date parsing for the shared client, so raw `sql` queries
// return timestamps as strings ("2026-01-02 03:04:05.678+00") and refuse Date parameters: convert here.

/** A timestamp column value (string or Date) as a Date. */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(String(value));
}

/** A timestamp column value as an ISO 8601 UTC string (null stays null). */
export function toIso(value: unknown): string;
export function toIso(value: unknown | null): string | null;
export function toIso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return toDate(value).toISOString();
}
