// Email delivery (CONTRACTS §1, §4): SMTP_URL set → nodemailer over SMTP; unset → .eml files in $DATA_DIR/outbox.
// The lead's config decides the driver; this switch is the only place that knows the adapters.
import type { DkimSettings } from '@story/config';
import type { EmailDelivery } from './email.port';
import { createOutboxDelivery } from './outbox.adapter';
import { createSmtpDelivery } from './smtp.adapter';

export type { EmailDelivery, EmailMessage, SendResult } from './email.port';
export { parseQueueId, toSmtpProviderError, isRecipientRefusal, smtpFailureReason, DEFAULT_SMTP_TIMEOUT_MS } from './smtp.adapter';
export { EmailDeliveryError, isEmailDeliveryError, cleanServerText } from './delivery-error';

export type EmailDeliveryConfig =
  | { driver: 'smtp'; smtpUrl: string; from: string; dkim?: DkimSettings }
  | { driver: 'outbox'; outboxDir: string; from: string };

export interface EmailDeliveryOptions {
  /** Skip STARTTLS (test servers with a self-signed or expired certificate). */
  ignoreTLS?: boolean;
  /** SMTP connect and greeting timeout in ms. */
  timeoutMs?: number;
}

/** `from` is the default sender, used for messages whose `from` is empty. */
export function createEmailDelivery(config: EmailDeliveryConfig, options: EmailDeliveryOptions = {}): EmailDelivery {
  switch (config.driver) {
    case 'smtp':
      return createSmtpDelivery({ smtpUrl: config.smtpUrl, defaultFrom: config.from, dkim: config.dkim, ignoreTLS: options.ignoreTLS, timeoutMs: options.timeoutMs });
    case 'outbox':
      return createOutboxDelivery({ outboxDir: config.outboxDir, defaultFrom: config.from });
    default: {
      const unknown: never = config;
      throw new Error(`Unknown email driver: ${JSON.stringify(unknown)}`);
    }
  }
}
