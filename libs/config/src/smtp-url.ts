// SMTP_URL (CONTRACTS §1): smtp://[user:pass@]host[:port][?options] (STARTTLS when the server offers it) or
// smtps://... (TLS from the first byte). TLS options travel as query parameters, so one variable says
// everything about the relay. Parsed once here: config validation refuses a bad URL at start, and the SMTP
// adapter (libs/providers) builds nodemailer's options from the same result.
//
// Query parameters (names as nodemailer spells its options, except tls.caFile which is ours):
//   tls.caFile=/path/ca.pem       trust the certificate authority in this PEM file (a private CA); read at start
//   tls.rejectUnauthorized=false  accept any certificate, self-signed included (a relay on the same host or network only)
//   tls.servername=mail.example   the name the certificate must carry when the URL names the host by address
//   requireTLS=true               refuse to send unless STARTTLS succeeds (smtp:// only)
//   ignoreTLS=true                never upgrade with STARTTLS, even when offered (smtp:// only)
//   name=client.example           the name this client gives in EHLO (default: the machine's host name)
import { readFileSync } from 'node:fs';

export interface SmtpTlsSettings {
  /** PEM of the certificate authorities to trust instead of Node's bundle. */
  ca?: string;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. */
  secure: boolean;
  auth?: { user: string; pass: string };
  tls: SmtpTlsSettings;
  requireTLS: boolean;
  ignoreTLS: boolean;
  name?: string;
}

/** A bad SMTP_URL; the message never repeats the URL (it may carry a password). */
export class SmtpUrlError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SmtpUrlError';
  }
}

const BOOLEAN_PARAMS = new Set(['tls.rejectUnauthorized', 'requireTLS', 'ignoreTLS']);
const KNOWN_PARAMS = ['tls.caFile', 'tls.rejectUnauthorized', 'tls.servername', 'requireTLS', 'ignoreTLS', 'name'];

function booleanParam(name: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new SmtpUrlError(`query parameter ${name} must be true or false`);
}

/** Parse and check SMTP_URL; throws SmtpUrlError saying what is wrong. Reads tls.caFile. */
export function parseSmtpUrl(value: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SmtpUrlError('must be a URL such as smtp://user:pass@mail.example:587 or smtps://mail.example:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new SmtpUrlError('must be a URL starting with smtp:// or smtps://');
  if (!url.hostname) throw new SmtpUrlError('names no host');
  if (url.pathname !== '' && url.pathname !== '/') throw new SmtpUrlError('must not have a path (options go in the query string)');
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  if (port < 1) throw new SmtpUrlError('has port 0');

  const seen = new Set<string>();
  const settings: SmtpSettings = { host: url.hostname.replace(/^\[|\]$/g, ''), port, secure, tls: {}, requireTLS: false, ignoreTLS: false };
  for (const [name, raw] of url.searchParams) {
    if (!KNOWN_PARAMS.includes(name)) throw new SmtpUrlError(`unknown query parameter ${name} (known: ${KNOWN_PARAMS.join(', ')})`);
    if (seen.has(name)) throw new SmtpUrlError(`query parameter ${name} is given twice`);
    seen.add(name);
    const v = raw.trim();
    if (BOOLEAN_PARAMS.has(name)) {
      const on = booleanParam(name, v);
      if (name === 'tls.rejectUnauthorized') settings.tls.rejectUnauthorized = on;
      else if (name === 'requireTLS') settings.requireTLS = on;
      else settings.ignoreTLS = on;
    } else if (v === '') {
      throw new SmtpUrlError(`query parameter ${name} is empty`);
    } else if (name === 'tls.caFile') {
      try {
        settings.tls.ca = readFileSync(v, 'utf8');
      } catch (err) {
        throw new SmtpUrlError(`tls.caFile ${v} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      if (!settings.tls.ca.includes('-----BEGIN CERTIFICATE-----')) throw new SmtpUrlError(`tls.caFile ${v} holds no PEM certificate`);
    } else if (name === 'tls.servername') {
      settings.tls.servername = v;
    } else {
      settings.name = v;
    }
  }
  if (settings.requireTLS && settings.ignoreTLS) throw new SmtpUrlError('requireTLS and ignoreTLS cannot both be true');
  if (secure && (settings.requireTLS || settings.ignoreTLS)) throw new SmtpUrlError('requireTLS and ignoreTLS apply to smtp:// (STARTTLS) only; smtps:// is always TLS');
  if (url.username || url.password) {
    try {
      settings.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
    } catch {
      throw new SmtpUrlError('has a user name or password that is not valid percent-encoding');
    }
  }
  return settings;
}
