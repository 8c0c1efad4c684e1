// What the mail server said, kept for the operator: the send worker logs it and stores it on the queue row,
// so a failure reads "TLS: self-signed certificate" or "550 5.1.1 <j***@example.com>: User unknown (RCPT TO)"
// instead of our own vague words. Never a message body or header: only the server's reply line or the
// socket/TLS error, with addresses masked and link queries (tokens) cut.
import { ProviderError, type ProviderErrorKind } from '../provider-error';

export class EmailDeliveryError extends ProviderError {
  /** The server's own reason, cleaned for logs and the queue row (at most 300 characters). */
  readonly reason: string;
  /**
   * The server refused the recipient for good at RCPT TO (5xx, mailbox or address status): the same
   * signal as a hard bounce, so the address is suppressed.
   */
  readonly recipientRefused: boolean;

  constructor(kind: ProviderErrorKind, provider: string, message: string, details: { reason: string; recipientRefused?: boolean; status?: number; cause?: unknown }) {
    super(kind, provider, message, { status: details.status, cause: details.cause });
    this.name = 'EmailDeliveryError';
    this.reason = details.reason;
    this.recipientRefused = details.recipientRefused ?? false;
  }
}

export function isEmailDeliveryError(err: unknown): err is EmailDeliveryError {
  return err instanceof EmailDeliveryError;
}

const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;
const LINK_QUERY = /\b(https?:\/\/[^\s?#<>"']+)[?#][^\s<>"']*/gi;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** A server's text made safe to log: addresses masked (j***@example.com), link queries dropped, one line, bounded. */
export function cleanServerText(text: string, max = 300): string {
  const clean = text.replace(CONTROL, ' ').replace(LINK_QUERY, '$1?…').replace(EMAIL, '$1***@$2').replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
