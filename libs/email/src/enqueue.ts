// Turning "send template X to user Y" into one email_send_queue row: template lookup, A/B arm, consent,
// per-user cap, rendering and the insert happen in one transaction, so a caller never leaves half a send.
// The worker (email-service) re-checks deliverability at send time; this library never talks to a provider.
import type { DbOrTx } from '@story/db';
import { abArmFor } from './ab-split';
import { credentialVariables } from './credentials';
import { checkDeliverable, type NotificationKind } from './preferences';
import { renderEmail } from './render';
import { createSendQueueRepository, type TemplateRow } from './send-queue.repository';

export type TemplateRef = { id: string } | { name: string };

export interface EnqueueInput {
  template: TemplateRef;
  /** The recipient's account; null/absent for addresses without one (invitees, gift recipients). */
  userId?: string | null;
  /** Defaults to the account's email. */
  toEmail?: string;
  variables: Record<string, unknown>;
  /** Overrides the template's send_delay_hours. */
  delayHours?: number;
  /** A second call with the same key queues nothing and reports the first row. */
  idempotencyKey?: string;
  kind?: NotificationKind;
  /**
   * Variables that are credentials (a verification or sign-in link, an invitation token, a gift code):
   * stored on the row so every view but the delivery removes them (credentials.ts). The well-known names
   * of KNOWN_CREDENTIAL_VARIABLES are added whatever the caller says.
   */
  sensitiveVariables?: readonly string[];
}

export interface EnqueueResult {
  queued: boolean;
  queueId?: string;
  /** Why nothing was queued: template_not_found, template_inactive, no_recipient, duplicate, max_sends_reached, or a checkDeliverable reason. */
  reason?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Queue one email from a template. Returns queued false with a reason for every expected refusal.
 * Throws MissingVariablesError when a required variable is absent: that is a bug in the caller, not
 * something to retry, and nothing is written.
 */
export async function enqueueTemplate(db: DbOrTx, input: EnqueueInput): Promise<EnqueueResult> {
  if ('id' in input.template && !UUID.test(input.template.id)) return { queued: false, reason: 'template_not_found' };
  return db.transaction(async (tx) => {
    const queue = createSendQueueRepository(tx);
    const base = await queue.findTemplate(input.template);
    if (!base) return { queued: false, reason: 'template_not_found' };
    if (!base.isActive) return { queued: false, reason: 'template_inactive' };

    if (input.idempotencyKey) {
      const existing = await queue.findIdByIdempotencyKey(input.idempotencyKey);
      if (existing) return { queued: false, queueId: existing, reason: 'duplicate' };
    }

    const userId = input.userId ?? null;
    let toEmail = input.toEmail?.trim();
    if (!toEmail && userId) toEmail = await queue.accountEmail(userId);
    if (!toEmail) return { queued: false, reason: 'no_recipient' };

    const verdict = await checkDeliverable(tx, { userId, email: toEmail, category: base.category, kind: input.kind });
    if (!verdict.allowed) return { queued: false, reason: verdict.reason };

    const userKey = userId ?? toEmail.toLowerCase();
    if (base.maxSendsPerUser !== null) {
      const n = await queue.lockAndCountSends(base.id, userId ? { userId } : { email: userKey });
      if (n >= base.maxSendsPerUser) return { queued: false, reason: 'max_sends_reached' };
    }

    let content: TemplateRow = base;
    let ab: { testId: string; variant: 'base' | 'variant' } | null = null;
    const test = await queue.runningAbTest(base.id);
    if (test) {
      const arm = abArmFor(test.id, userKey, test.testPercentage);
      const variant = arm === 'variant' ? await queue.findTemplate({ id: test.variantTemplateId }) : undefined;
      // A deleted variant falls back to the base copy, recorded as the base arm so results stay honest.
      if (variant) content = variant;
      ab = { testId: test.id, variant: variant ? 'variant' : 'base' };
    }

    const rendered = renderEmail(content, input.variables);
    const delayHours = Math.max(0, input.delayHours ?? base.sendDelayHours);
    const queueId = await queue.insert(
      {
        templateId: content.id,
        userId,
        toEmail,
        subject: rendered.subject,
        htmlContent: rendered.html,
        textContent: rendered.text,
        templateVariables: rendered.variables,
        sensitiveVariables: credentialVariables(rendered.variables, input.sensitiveVariables),
        category: base.category,
        idempotencyKey: input.idempotencyKey ?? null,
        abTestId: ab?.testId ?? null,
        abVariant: ab?.variant ?? null,
      },
      delayHours,
    );
    if (queueId) return { queued: true, queueId };
    // A concurrent call with the same key inserted first: report its row.
    return { queued: false, queueId: await queue.findIdByIdempotencyKey(input.idempotencyKey ?? ''), reason: 'duplicate' };
  });
}
