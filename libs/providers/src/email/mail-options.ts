// Turns the transport-free EmailMessage into nodemailer's message options, shared by the SMTP and outbox
// adapters so both put the same bytes on the wire: the outbox .eml is what SMTP would have sent.
import { randomUUID } from 'node:crypto';
import type { MailComposerOptions } from 'nodemailer/lib/mail-composer';
import { ProviderError } from '../provider-error';
import type { EmailMessage } from './email.port';

/** Fill in the configured default sender when a message names none; a message with no sender at all is refused. */
export function withSender(message: EmailMessage, defaultFrom: string | undefined, provider: string): EmailMessage {
  if (message.from.trim()) return message;
  if (defaultFrom?.trim()) return { ...message, from: defaultFrom };
  throw new ProviderError('rejected_input', provider, `${provider} send refused: the message has no sender and no default is configured`);
}

/** The domain part of an address such as 'Name <a@example.com>' or 'a@example.com'. */
function domainOf(address: string): string {
  const match = /@([^\s<>@]+?)>?\s*$/.exec(address.trim());
  return match ? match[1] : 'localhost';
}

/** Normalise to '<id@domain>'; a new one uses the sender's domain so receivers see a sensible right-hand side. */
export function resolveMessageId(message: EmailMessage): string {
  const given = message.messageId?.trim();
  if (given) return `<${given.replace(/^<|>$/g, '')}>`;
  return `<${randomUUID()}@${domainOf(message.from)}>`;
}

/** Header names allow printable ASCII minus ':' (RFC 5322 ftext); tag names are squeezed into that. */
function tagHeaderName(name: string): string {
  return `X-Tag-${name.replace(/[^A-Za-z0-9-]/g, '-')}`;
}

export function toMailOptions(message: EmailMessage, messageId: string): MailComposerOptions {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.tags ?? {})) headers[tagHeaderName(name)] = value;
  // Caller headers last: they win over tag headers, and nodemailer keeps names and values as given
  // (values are only folded or, when not ASCII, encoded), so List-Unsubscribe survives intact.
  Object.assign(headers, message.headers ?? {});
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
    messageId,
    date: new Date(),
    headers,
  };
}
