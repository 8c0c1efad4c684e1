// Small text checks every service needs once: the uuid shape (ids in paths and query strings are checked
// before they reach PostgreSQL, which would answer 22P02 for a malformed uuid) and HTML escaping for
// server-rendered pages and documents.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the value is a uuid in its canonical 8-4-4-4-12 hex form (any version, any case). */
export const isUuid = (value: string): boolean => UUID.test(value);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The value as text safe inside HTML elements and quoted attributes (null and undefined become ''). */
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
