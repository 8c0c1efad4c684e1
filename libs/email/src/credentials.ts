// Credentials in queued emails (CONTRACTS §7: ownership of an address). A verification link, a sign-in link,
// an invitation or a gift code is a key: whoever reads it can act as the addressee. Such an email goes to
// the mailbox and nowhere else, so:
// - the trigger that queues it names, at enqueue time, which template variables are credentials
//   (`sensitive_variables` on the queue row); a few well-known names are always treated as credentials, so
//   a caller that forgets cannot leak one;
// - every view of a queued email other than the delivery itself (the in-app inbox, the data export, admin
//   views) shows it through `redactQueuedEmail`, which removes each credential from the variables and from
//   the rendered subject, HTML and text;
// - once the row reaches a final state (sent, failed, cancelled) the worker stores the redacted copy, so the
//   stored row keeps no usable credential.
import { escapeHtml } from './render';

/** What a credential is replaced with. */
export const REDACTED = '[removed]';

/** Variables that carry a credential in the platform's own emails, whatever the caller says. */
export const KNOWN_CREDENTIAL_VARIABLES: readonly string[] = ['verification_url', 'magic_link_url', 'invitation_url', 'invitation_token', 'redeem_url', 'gift_code', 'reset_url'];

/** The credential variables of a send: the caller's list and every known name the variables hold. */
export function credentialVariables(variables: Record<string, unknown>, declared: readonly string[] = []): string[] {
  const names = new Set(declared);
  for (const name of KNOWN_CREDENTIAL_VARIABLES) if (variables[name] !== undefined && variables[name] !== null) names.add(name);
  return [...names].sort();
}

export interface QueuedEmailContent {
  subject: string;
  html: string;
  text: string | null;
  variables: Record<string, unknown>;
  /** The queue row's sensitive_variables. */
  sensitiveVariables: readonly string[];
}

/** A run that looks like a token or a code: 12+ URL-safe characters with at least one letter and one digit. */
const TOKEN_LIKE = /[A-Za-z0-9_-]{12,}/g;
const isTokenLike = (s: string) => /[0-9]/.test(s) && /[A-Za-z]/.test(s);
/** Guard on the rendered text of a credential email: a token or code in a query string, however it got there. */
const QUERY_CREDENTIAL = /([?&](?:amp;)?(?:token|code|key)=)[^&"'\s<>]+/gi;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every form in which a credential value can appear in a rendered email. */
function formsOf(value: string): string[] {
  const forms = new Set<string>([value, escapeHtml(value)]);
  for (const run of value.match(TOKEN_LIKE) ?? []) {
    if (!isTokenLike(run)) continue;
    forms.add(run);
    forms.add(encodeURIComponent(run));
  }
  for (const form of [...forms]) if (form.length < 8) forms.delete(form);
  // Longest first: a whole link goes before the token inside it.
  return [...forms].sort((a, b) => b.length - a.length);
}

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : value === undefined || value === null ? null : JSON.stringify(value));

/**
 * The email as anyone but its mailbox may see it: each credential variable set to REDACTED, and every
 * appearance of its value (raw, HTML-escaped, and the token-like runs inside it) removed from the subject,
 * HTML and text. A row without credential variables comes back unchanged.
 */
export function redactQueuedEmail<T extends QueuedEmailContent>(email: T): T {
  if (email.sensitiveVariables.length === 0) return email;
  const names = email.sensitiveVariables.filter((n) => Object.prototype.hasOwnProperty.call(email.variables, n));
  const forms = [...new Set(names.flatMap((n) => formsOf(textOf(email.variables[n]) ?? '')))].sort((a, b) => b.length - a.length);
  const pattern = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join('|'), 'g') : null;
  const clean = (s: string): string => (pattern ? s.replace(pattern, REDACTED) : s).replace(QUERY_CREDENTIAL, `$1${REDACTED}`);
  const variables = { ...email.variables };
  for (const n of names) variables[n] = REDACTED;
  return { ...email, subject: clean(email.subject), html: clean(email.html), text: email.text === null ? null : clean(email.text), variables };
}
