// SMTP delivery through a pooled nodemailer transport (any SMTP server, or Resend's SMTP relay). nodemailer's
// errors are translated here into ProviderError so the send worker decides retry or give-up by `kind` alone:
// 4xx replies and broken connections are retried later, 5xx replies are final for that message.
import type * as Nodemailer from 'nodemailer';
import { ProviderError, type ProviderErrorKind } from '../provider-error';
import type { EmailDelivery, EmailMessage, SendResult } from './email.port';
import { resolveMessageId, toMailOptions, withSender } from './mail-options';
import { lazyModule } from '../shared/lazy-module';

const loadSdk = lazyModule(() => require('nodemailer') as typeof Nodemailer);

const PROVIDER = 'smtp';

export interface SmtpDeliveryOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (implicit TLS). */
  smtpUrl: string;
  /** Sender used when a message's `from` is empty. */
  defaultFrom?: string;
  /** Skip STARTTLS even when offered; for local test servers only. */
  ignoreTLS?: boolean;
  /** Connect and greeting timeout; socket inactivity gets twice this, for large bodies on slow links. */
  timeoutMs?: number;
  maxConnections?: number;
  maxMessages?: number;
}

export const DEFAULT_SMTP_TIMEOUT_MS = 30_000;

/** nodemailer's error fields we classify on; everything else about the error stays inside as `cause`. */
interface SmtpErrorShape {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

const CONNECTION_CODES = new Set(['ECONNECTION', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

function kindFor(err: SmtpErrorShape): ProviderErrorKind {
  const code = err.responseCode;
  if (err.code === 'EAUTH' || err.code === 'ENOAUTH' || err.code === 'EOAUTH2' || code === 530 || code === 534 || code === 535) return 'auth';
  if (code !== undefined && code >= 400 && code < 500) return 'unavailable';
  // 503 is "bad sequence of commands": the session was confused, not the message refused (RFC 5321 §4.2.4),
  // so a fresh connection can take the same message.
  if (code === 503) return 'unavailable';
  if (code !== undefined && code >= 500 && code < 600) return 'rejected_input';
  if (err.code === 'ETIMEDOUT') return 'timeout';
  if (err.code !== undefined && CONNECTION_CODES.has(err.code)) return 'unavailable';
  if (err.code === 'EENVELOPE' || err.code === 'EMAXRECIPIENTS' || err.code === 'EMESSAGE') return 'rejected_input';
  return 'failed';
}

/** Translate anything nodemailer throws into a ProviderError, keeping the SMTP reply code as `status`. */
export function toSmtpProviderError(err: unknown, action: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const e: SmtpErrorShape = typeof err === 'object' && err !== null ? (err as SmtpErrorShape) : { message: String(err) };
  const kind = kindFor(e);
  const reply = e.response ? `: ${e.response.replace(/\s+/g, ' ').slice(0, 200)}` : '';
  const detail = e.responseCode !== undefined ? `server answered ${e.command ? `${e.command} with ` : ''}${e.responseCode}${reply}` : `${e.code ?? 'error'}: ${e.message ?? 'unknown failure'}`;
  return new ProviderError(kind, PROVIDER, `smtp ${action} failed (${detail})`, { status: e.responseCode, cause: err });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The id the server queued the message under, read from its final 250 reply:
 * Postfix/smtp-server "250 2.0.0 Ok: queued as ABC123", Yandex "queued on host as ID", Exim "250 OK id=1abc-0000",
 * Resend's relay and others that answer with the email's UUID, or a single id token after "Ok".
 * Undefined when the reply carries nothing id-like (Gmail's free text, a bare "250 OK").
 */
export function parseQueueId(response: string | undefined): string | undefined {
  if (!response) return undefined;
  const text = response.trim();
  const queued = /queued(?:\s+on\s+\S+)?\s+as\s+<?([^\s<>]+)>?/i.exec(text);
  if (queued) return queued[1];
  const exim = /\bid=<?([^\s<>]+)>?/i.exec(text);
  if (exim) return exim[1];
  const uuid = UUID.exec(text);
  if (uuid) return uuid[0];
  const token = /^2\d\d(?:[\s-]+\d\.\d{1,3}\.\d{1,3})?\s+ok[:\s]+<?([A-Za-z0-9][A-Za-z0-9._@-]{5,})>?\s*$/i.exec(text);
  return token ? token[1] : undefined;
}

export function createSmtpDelivery(options: SmtpDeliveryOptions): EmailDelivery {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  let transporter: ReturnType<typeof Nodemailer.createTransport>;
  try {
    // Values in the URL (host, port, auth, secure from smtps://) win over these; TLS follows the scheme:
    // smtps:// is implicit TLS, smtp:// upgrades with STARTTLS when the server offers it.
    transporter = loadSdk().createTransport({
      url: options.smtpUrl,
      pool: true,
      maxConnections: options.maxConnections ?? 5,
      maxMessages: options.maxMessages ?? 100,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs * 2,
      ignoreTLS: options.ignoreTLS ?? false,
    });
  } catch (err) {
    throw toSmtpProviderError(err, 'configuration');
  }

  return {
    provider: 'smtp',

    async send(input: EmailMessage): Promise<SendResult> {
      const message = withSender(input, options.defaultFrom, PROVIDER);
      const messageId = resolveMessageId(message);
      try {
        const info = await transporter.sendMail(toMailOptions(message, messageId));
        const accepted = [...info.accepted];
        const rejected = [...info.rejected];
        if (accepted.length === 0) {
          throw new ProviderError('rejected_input', PROVIDER, 'smtp send failed (no recipient was accepted)');
        }
        return { provider: 'smtp', providerMessageId: parseQueueId(info.response) ?? messageId, messageId, accepted, rejected };
      } catch (err) {
        throw toSmtpProviderError(err, 'send');
      }
    },

    async verify(): Promise<void> {
      try {
        await transporter.verify();
      } catch (err) {
        throw toSmtpProviderError(err, 'verify');
      }
    },

    async close(): Promise<void> {
      transporter.close();
    },
  };
}
