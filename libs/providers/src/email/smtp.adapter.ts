// SMTP delivery through a pooled nodemailer transport (any SMTP server, or Resend's SMTP relay). nodemailer's
// errors are translated here into EmailDeliveryError (a ProviderError) so the send worker decides retry or
// give-up by `kind` alone: 4xx replies and broken connections are retried later, 5xx replies are final for
// that message. Each error carries the server's own reason (delivery-error.ts) and says whether the
// recipient was refused for good. SMTP_URL's TLS options and DKIM signing come from libs/config.
import type * as Nodemailer from 'nodemailer';
import { parseSmtpUrl, type DkimSettings } from '@story/config';
import { ProviderError, type ProviderErrorKind } from '../provider-error';
import { cleanServerText, EmailDeliveryError } from './delivery-error';
import type { EmailDelivery, EmailMessage, SendResult } from './email.port';
import { resolveMessageId, toMailOptions, withSender } from './mail-options';
import { lazyModule } from '../shared/lazy-module';

const loadSdk = lazyModule(() => require('nodemailer') as typeof Nodemailer);

const PROVIDER = 'smtp';

export interface SmtpDeliveryOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (implicit TLS); TLS options as query parameters (libs/config smtp-url.ts). */
  smtpUrl: string;
  /** DKIM-sign every message (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY). */
  dkim?: DkimSettings;
  /** Sender used when a message's `from` is empty. */
  defaultFrom?: string;
  /** Skip STARTTLS even when offered (tests; SMTP_URL's ignoreTLS=true says the same). */
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
  /** The underlying socket or TLS error code (e.g. DEPTH_ZERO_SELF_SIGNED_CERT). */
  originalCode?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

const TLS_FAILURE = /certificate|self[- ]signed|\btls\b|\bssl\b|handshake|CERT_|ERR_TLS|ERR_SSL/i;

/** The enhanced status code of a reply ("550 5.1.1 ..." → [5, 1, 1]), when the server gave one. */
function enhancedCode(response: string | undefined): [number, number, number] | undefined {
  const m = /^\d{3}[\s-]+([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(response?.trim() ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * A permanent refusal of the recipient itself, as a hard bounce would report it: a 5xx answer to RCPT TO
 * whose enhanced code is an address or mailbox status (5.1.x, 5.2.x but 5.2.2 "mailbox full"), or, without
 * one, 550/551/553. Policy refusals (5.7.x: relaying denied, sender not authorised) and system or protocol
 * errors say something about us or the server, not the address, and suppress nothing.
 */
export function isRecipientRefusal(err: Pick<SmtpErrorShape, 'command' | 'responseCode' | 'response'>): boolean {
  if (err.command !== 'RCPT TO' || err.responseCode === undefined || err.responseCode < 500 || err.responseCode >= 600) return false;
  const enhanced = enhancedCode(err.response);
  if (enhanced) return enhanced[0] === 5 && (enhanced[1] === 1 || (enhanced[1] === 2 && enhanced[2] !== 2));
  return err.responseCode === 550 || err.responseCode === 551 || err.responseCode === 553;
}

/** The server's own words for a failure, safe to log and store (delivery-error.ts cleanServerText). */
export function smtpFailureReason(err: SmtpErrorShape): string {
  if (err.responseCode !== undefined) {
    const reply = err.response?.trim() || String(err.responseCode);
    return cleanServerText(`${reply}${err.command ? ` (${err.command})` : ''}`);
  }
  const text = err.message?.trim() || 'unknown failure';
  const where = err.command === 'CONN' ? 'while connecting' : err.command ? `after ${err.command}` : '';
  const codes = [err.code, err.originalCode].filter((c): c is string => !!c && !text.includes(c)).join('/');
  const tls = TLS_FAILURE.test(`${text} ${err.originalCode ?? ''}`) ? 'TLS: ' : '';
  const tail = [codes, where].filter(Boolean).join(' ');
  return cleanServerText(`${tls}${text}${tail ? ` (${tail})` : ''}`);
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

/** Translate anything nodemailer throws into an EmailDeliveryError, keeping the SMTP reply code as `status`. */
export function toSmtpProviderError(err: unknown, action: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const e: SmtpErrorShape = typeof err === 'object' && err !== null ? (err as SmtpErrorShape) : { message: String(err) };
  const kind = kindFor(e);
  const reason = smtpFailureReason(e);
  return new EmailDeliveryError(kind, PROVIDER, `smtp ${action} failed: ${reason}`, { reason, recipientRefused: isRecipientRefusal(e), status: e.responseCode, cause: err });
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
    // TLS follows the scheme: smtps:// is implicit TLS, smtp:// upgrades with STARTTLS when the server
    // offers it (requireTLS: or fails). The certificate is checked against Node's CAs, or tls.caFile's.
    const url = parseSmtpUrl(options.smtpUrl);
    transporter = loadSdk().createTransport({
      host: url.host,
      port: url.port,
      secure: url.secure,
      ...(url.auth ? { auth: url.auth } : {}),
      ...(url.name ? { name: url.name } : {}),
      tls: url.tls,
      requireTLS: url.requireTLS,
      ignoreTLS: options.ignoreTLS ?? url.ignoreTLS,
      ...(options.dkim ? { dkim: { domainName: options.dkim.domainName, keySelector: options.dkim.keySelector, privateKey: options.dkim.privateKey } } : {}),
      pool: true,
      maxConnections: options.maxConnections ?? 5,
      maxMessages: options.maxMessages ?? 100,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs * 2,
    });
  } catch (err) {
    // parseSmtpUrl's message never repeats the URL (it may carry a password).
    throw new ProviderError('failed', PROVIDER, `SMTP_URL: ${err instanceof Error ? err.message : 'cannot be used'}`, { cause: err });
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
