// The email delivery seam (CONVENTIONS 9, listmonk's Messenger): services build a transport-free message and
// hand it to `send`; whether it leaves over SMTP or lands in the .eml outbox is the adapter's business.

/** One rendered message, ready to send; nothing in it depends on the transport. */
export interface EmailMessage {
  from: string;
  to: string;
  subject: string;
  html?: string;
  text?: string;
  replyTo?: string;
  /** Extra headers passed through verbatim (List-Unsubscribe, List-Unsubscribe-Post, X-Entity-Ref-ID...). */
  headers?: Record<string, string>;
  /** RFC 5322 Message-ID to use, e.g. '<uuid@domain>'; generated when absent */
  messageId?: string;
  /** Provider-side labels; SMTP has no place for them, so they travel as X-Tag-<name> headers there. */
  tags?: Record<string, string>;
}

export interface SendResult {
  provider: 'smtp' | 'outbox';
  /** the id the provider knows the message by (SMTP: the queue id from the 250 reply when the server gives one, else the Message-ID) */
  providerMessageId: string;
  /** The RFC 5322 Message-ID the message carried, angle brackets included. */
  messageId: string;
  accepted: string[];
  rejected: string[];
}

export interface EmailDelivery {
  readonly provider: 'smtp' | 'outbox';
  /** Deliver one message; failures are ProviderError values whose `retryable` says whether to try again later. */
  send(message: EmailMessage): Promise<SendResult>;
  /** Check that the provider can take mail (SMTP: connect and greet; outbox: the directory is writable). */
  verify(): Promise<void>;
  /** Release connections; the delivery is unusable afterwards. */
  close(): Promise<void>;
}
