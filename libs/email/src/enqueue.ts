// Turning "send template X to user Y" into one email_send_queue row: template lookup, A/B arm, consent,
// per-user cap, rendering and the insert happen in one transaction, so a caller never leaves half a send.
// The worker (email-service) re-checks deliverability at send time; this library never talks to a provider.
import { accounts, type DbOrTx, emailAbTests, emailSendQueue, emailTemplates } from '@story/db';
import { and, desc, eq, gt, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { abArmFor } from './ab-split';
import { checkDeliverable, type NotificationKind } from './preferences';
import { renderEmail } from './render';

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
}

export interface EnqueueResult {
  queued: boolean;
  queueId?: string;
  /** Why nothing was queued: template_not_found, template_inactive, no_recipient, duplicate, max_sends_reached, or a checkDeliverable reason. */
  reason?: string;
}

type TemplateRow = typeof emailTemplates.$inferSelect;

async function loadTemplate(db: DbOrTx, ref: TemplateRef): Promise<TemplateRow | undefined> {
  const where = 'id' in ref ? eq(emailTemplates.id, ref.id) : eq(emailTemplates.name, ref.name);
  const [row] = await db.select().from(emailTemplates).where(where).limit(1);
  return row;
}

/** The newest running test of this base template whose window contains now. */
async function runningAbTest(db: DbOrTx, baseTemplateId: string) {
  const [test] = await db
    .select()
    .from(emailAbTests)
    .where(
      and(
        eq(emailAbTests.baseTemplateId, baseTemplateId),
        eq(emailAbTests.status, 'running'),
        lte(emailAbTests.startDate, sql`now()`),
        or(isNull(emailAbTests.endDate), gt(emailAbTests.endDate, sql`now()`)),
      ),
    )
    .orderBy(desc(emailAbTests.startDate))
    .limit(1);
  return test;
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
    const base = await loadTemplate(tx, input.template);
    if (!base) return { queued: false, reason: 'template_not_found' };
    if (!base.isActive) return { queued: false, reason: 'template_inactive' };

    if (input.idempotencyKey) {
      const [existing] = await tx.select({ id: emailSendQueue.id }).from(emailSendQueue).where(eq(emailSendQueue.idempotencyKey, input.idempotencyKey)).limit(1);
      if (existing) return { queued: false, queueId: existing.id, reason: 'duplicate' };
    }

    const userId = input.userId ?? null;
    let toEmail = input.toEmail?.trim();
    if (!toEmail && userId) {
      const [account] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, userId)).limit(1);
      toEmail = account?.email;
    }
    if (!toEmail) return { queued: false, reason: 'no_recipient' };

    const verdict = await checkDeliverable(tx, { userId, email: toEmail, category: base.category, kind: input.kind });
    if (!verdict.allowed) return { queued: false, reason: verdict.reason };

    const userKey = userId ?? toEmail.toLowerCase();
    if (base.maxSendsPerUser !== null) {
      // Serialise concurrent enqueues of this template for this recipient, or two could both pass the count.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`email-cap:${base.id}:${userKey}`}))`);
      const recipient = userId ? eq(emailSendQueue.userId, userId) : sql`lower(${emailSendQueue.toEmail}) = ${userKey}`;
      // A/B variant rows carry the variant's template_id, so they count through their test's base template.
      const ofTemplate = or(
        eq(emailSendQueue.templateId, base.id),
        sql`${emailSendQueue.abTestId} in (select id from email_ab_tests where base_template_id = ${base.id})`,
      );
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(emailSendQueue)
        .where(and(recipient, ofTemplate, ne(emailSendQueue.status, 'cancelled')));
      if (n >= base.maxSendsPerUser) return { queued: false, reason: 'max_sends_reached' };
    }

    let content: TemplateRow = base;
    let ab: { testId: string; variant: 'base' | 'variant' } | null = null;
    const test = await runningAbTest(tx, base.id);
    if (test) {
      const arm = abArmFor(test.id, userKey, test.testPercentage);
      const variant = arm === 'variant' ? await loadTemplate(tx, { id: test.variantTemplateId }) : undefined;
      // A deleted variant falls back to the base copy, recorded as the base arm so results stay honest.
      if (variant) content = variant;
      ab = { testId: test.id, variant: variant ? 'variant' : 'base' };
    }

    const rendered = renderEmail(content, input.variables);
    const delayHours = Math.max(0, input.delayHours ?? base.sendDelayHours);
    const inserted = await tx
      .insert(emailSendQueue)
      .values({
        templateId: content.id,
        userId,
        toEmail,
        subject: rendered.subject,
        htmlContent: rendered.html,
        textContent: rendered.text,
        templateVariables: rendered.variables,
        category: base.category,
        scheduledFor: sql`now() + make_interval(secs => ${delayHours * 3600})`,
        idempotencyKey: input.idempotencyKey ?? null,
        abTestId: ab?.testId ?? null,
        abVariant: ab?.variant ?? null,
      })
      // A concurrent call with the same key may have inserted between the check above and here.
      .onConflictDoNothing({ target: emailSendQueue.idempotencyKey })
      .returning({ id: emailSendQueue.id });
    if (inserted[0]) return { queued: true, queueId: inserted[0].id };
    const [existing] = await tx.select({ id: emailSendQueue.id }).from(emailSendQueue).where(eq(emailSendQueue.idempotencyKey, input.idempotencyKey ?? '')).limit(1);
    return { queued: false, queueId: existing?.id, reason: 'duplicate' };
  });
}
