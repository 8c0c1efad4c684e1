// SQL of event-driven automation (Drizzle): which rules and templates an event names, and the facts a user
// segment is decided on. Created over a database or a transaction handle, so triggerEvent reads them inside
// the transaction that queues the event's emails.
import { accounts, type DbOrTx, emailAutomationRules, emailTemplates, profiles } from '@story/db';
import { and, asc, desc, eq, sql } from 'drizzle-orm';

export function createAutomationRepository(db: DbOrTx) {
  return {
    /** Tier and activity of a user, for segment conditions; undefined when there is no such account. */
    async segmentFacts(userId: string, tx: DbOrTx = db): Promise<{ tier: string; isNew: boolean; isInactive: boolean } | undefined> {
      const [row] = await tx
        .select({
          tier: sql<string>`coalesce(${profiles.subscriptionTier}, 'free')`,
          isNew: sql<boolean>`${accounts.createdAt} > now() - interval '7 days'`,
          // Never signed in counts from account creation, so a fresh account is not "inactive".
          isInactive: sql<boolean>`coalesce(${accounts.lastSignInAt}, ${accounts.createdAt}) < now() - interval '30 days'`,
        })
        .from(accounts)
        .leftJoin(profiles, eq(profiles.id, accounts.id))
        .where(eq(accounts.id, userId))
        .limit(1);
      return row;
    },

    /** The active rules of an event with their template, highest priority first, then oldest. */
    activeRules(event: string, tx: DbOrTx = db) {
      return tx
        .select({ rule: emailAutomationRules, template: { id: emailTemplates.id, name: emailTemplates.name, isActive: emailTemplates.isActive } })
        .from(emailAutomationRules)
        .innerJoin(emailTemplates, eq(emailTemplates.id, emailAutomationRules.templateId))
        .where(and(eq(emailAutomationRules.event, event), eq(emailAutomationRules.isActive, true)))
        .orderBy(desc(emailAutomationRules.priority), asc(emailAutomationRules.createdAt));
    },

    /** Active templates listing the event in trigger_events, by name, except variants of a running A/B test. */
    triggeredTemplates(event: string, tx: DbOrTx = db): Promise<{ id: string; name: string }[]> {
      return tx
        .select({ id: emailTemplates.id, name: emailTemplates.name })
        .from(emailTemplates)
        .where(
          and(
            eq(emailTemplates.isActive, true),
            sql`${emailTemplates.triggerEvents} @> array[${event}]::text[]`,
            sql`not exists (select 1 from email_ab_tests ab where ab.variant_template_id = ${emailTemplates.id} and ab.status = 'running')`,
          ),
        )
        .orderBy(asc(emailTemplates.name));
    },
  };
}

export type AutomationRepository = ReturnType<typeof createAutomationRepository>;
