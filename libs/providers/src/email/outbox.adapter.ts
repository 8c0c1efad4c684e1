// The embedded default when no SMTP_URL is set (CONTRACTS §1): every message becomes an RFC 5322 .eml file in
// $DATA_DIR/outbox, built by nodemailer's own MIME composer, so the file is byte for byte what SMTP would carry
// and any mail client opens it. Files are written to a temp name and renamed, so a reader never sees half a message.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import { ProviderError } from '../provider-error';
import type { EmailDelivery, EmailMessage, SendResult } from './email.port';
import { resolveMessageId, toMailOptions, withSender } from './mail-options';

const PROVIDER = 'outbox';

export interface OutboxDeliveryOptions {
  /** Where the .eml files go, usually $DATA_DIR/outbox; created on first use. */
  outboxDir: string;
  /** Sender used when a message's `from` is empty. */
  defaultFrom?: string;
}

/** '<abc@example.com>' → 'abc_example.com': safe on every filesystem, still recognisable. */
function fileSafe(messageId: string): string {
  return messageId.replace(/^<|>$/g, '').replace(/@/g, '_').replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 120);
}

function fsError(err: unknown, action: string): ProviderError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // A full disk may clear up; a missing or read-only directory is an operator's fix, not worth a retry.
  const kind = code === 'ENOSPC' || code === 'EDQUOT' ? 'quota' : 'failed';
  return new ProviderError(kind, PROVIDER, `outbox ${action} failed (${code ?? 'error'})`, { cause: err });
}

export function createOutboxDelivery(options: OutboxDeliveryOptions): EmailDelivery {
  const dir = options.outboxDir;

  return {
    provider: 'outbox',

    async send(input: EmailMessage): Promise<SendResult> {
      const message = withSender(input, options.defaultFrom, PROVIDER);
      const messageId = resolveMessageId(message);
      let raw: Buffer;
      try {
        raw = await new MailComposer(toMailOptions(message, messageId)).compile().build();
      } catch (err) {
        throw new ProviderError('rejected_input', PROVIDER, `outbox could not build the message (${(err as Error).message})`, { cause: err });
      }
      // Timestamp first so `ls` lists the outbox in send order; ':' is not allowed in Windows file names.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${fileSafe(messageId)}.eml`;
      const temp = join(dir, `.${name}.${randomUUID()}.tmp`);
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(temp, raw, { flag: 'wx' });
        await rename(temp, join(dir, name));
      } catch (err) {
        await rm(temp, { force: true }).catch(() => undefined);
        throw fsError(err, 'write');
      }
      return { provider: 'outbox', providerMessageId: messageId, messageId, accepted: [message.to], rejected: [] };
    },

    async verify(): Promise<void> {
      try {
        await mkdir(dir, { recursive: true });
        await access(dir, constants.W_OK);
      } catch (err) {
        throw fsError(err, 'verify');
      }
    },

    async close(): Promise<void> {
      // Nothing held open.
    },
  };
}
