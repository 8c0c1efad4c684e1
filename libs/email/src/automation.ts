// Event-driven automation (spec 001 "Internal automation operations"): an event names templates through
// their trigger_events and through email_automation_rules; each match becomes one queue row via
// enqueueTemplate. core-api calls these in-process (CONTRACTS §5); nothing here sends mail.
import type { DbOrTx } from '@story/db';
import { createAutomationRepository } from './automation.repository';
import { enqueueTemplate } from './enqueue';
import { normalizeEmail, type NotificationKind } from './preferences';
import { createPreferencesRepository } from './preferences.repository';
import { MissingVariablesError } from './render';

export interface TriggerEventInput {
  event: string;
  user_id: string;
  template_variables?: Record<string, unknown>;
  /** Overrides both the template's and the rule's delay. */
  delay_hours?: number;
  conditions?: { user_segment?: string };
  /** Send to this address instead of the account's; the row's user_id is then the account owning it, if any. */
  to_email?: string;
  /** Per-kind notification switch to respect; defaults from the event name (EVENT_KINDS). */
  kind?: NotificationKind;
  /** Made unique per template as `<key>:<template id>`; a repeated trigger then queues nothing new. */
  idempotency_key?: string;
  /** Variables that are credentials (links with tokens, codes): never shown outside the delivery (credentials.ts). */
  sensitive_variables?: readonly string[];
}

export interface TriggerEventResult {
  queued: number;
  skipped: { template: string; reason: string }[];
}

/** The notification switch each known event falls under (non-transactional templates only). */
export const EVENT_KINDS: Record<string, NotificationKind> = {
  story_created: 'story_updates',
  story_reminder: 'story_updates',
  family_invitation: 'family_invitations',
  weekly_digest: 'weekly_digest',
  writing_reminder: 'writing_reminders',
};

export const USER_SEGMENTS = ['all', 'free', 'paid', 'new_users', 'inactive'] as const;

/** True/false for a known segment, null for an unknown one (the caller skips with a reason). */
async function inSegment(db: DbOrTx, userId: string, segment: string): Promise<boolean | null> {
  if (segment === 'all') return true;
  if (!(USER_SEGMENTS as readonly string[]).includes(segment)) return null;
  const row = await createAutomationRepository(db).segmentFacts(userId);
  if (!row) return false;
  switch (segment) {
    case 'free':
      return row.tier === 'free';
    case 'paid':
      return row.tier !== 'free';
    case 'new_users':
      return row.isNew;
    default:
      return row.isInactive;
  }
}

/** The first unmet segment condition as a skip reason, or null when all are met. */
async function segmentRefusal(db: DbOrTx, userId: string, conditions: Record<string, unknown>[]): Promise<string | null> {
  for (const c of conditions) {
    const segment = c['user_segment'];
    if (segment === undefined || segment === null) continue;
    if (typeof segment !== 'string') return 'unknown_segment';
    const verdict = await inSegment(db, userId, segment);
    if (verdict === null) return `unknown_segment:${segment}`;
    if (!verdict) return `not_in_segment:${segment}`;
  }
  return null;
}

/**
 * Queue every email an event calls for, in one transaction. Rules run first, highest priority first, with
 * their conditions and delay; then templates listing the event in trigger_events that no rule already
 * handled (so a template named both ways is not sent twice). Templates that are the variant of a running
 * A/B test are skipped here: they go out through their base template's arm split.
 * A template whose required variables are missing is skipped with reason `missing_variables:...` rather
 * than failing the whole event (admin-edited templates must not break signup).
 */
export async function triggerEvent(db: DbOrTx, input: TriggerEventInput): Promise<TriggerEventResult> {
  const result: TriggerEventResult = { queued: 0, skipped: [] };
  const kind = input.kind ?? EVENT_KINDS[input.event];
  const callerConditions = input.conditions ? [input.conditions as Record<string, unknown>] : [];

  await db.transaction(async (tx) => {
    const automation = createAutomationRepository(tx);
    let recipientId: string | null = input.user_id;
    if (input.to_email) {
      recipientId = await createPreferencesRepository(tx).accountIdByEmail(normalizeEmail(input.to_email));
    }

    const handled = new Set<string>();
    const enqueue = async (template: { id: string; name: string }, conditions: Record<string, unknown>[], delayHours: number | undefined) => {
      handled.add(template.id);
      const refusal = await segmentRefusal(tx, input.user_id, conditions);
      if (refusal) {
        result.skipped.push({ template: template.name, reason: refusal });
        return;
      }
      try {
        const r = await enqueueTemplate(tx, {
          template: { id: template.id },
          userId: recipientId,
          toEmail: input.to_email,
          variables: input.template_variables ?? {},
          delayHours,
          kind,
          idempotencyKey: input.idempotency_key ? `${input.idempotency_key}:${template.id}` : undefined,
          sensitiveVariables: input.sensitive_variables,
        });
        if (r.queued) result.queued++;
        else result.skipped.push({ template: template.name, reason: r.reason ?? 'not_queued' });
      } catch (err) {
        if (!(err instanceof MissingVariablesError)) throw err;
        result.skipped.push({ template: template.name, reason: `missing_variables:${err.missing.join(',')}` });
      }
    };

    const rules = await automation.activeRules(input.event);
    for (const { rule, template } of rules) {
      if (handled.has(template.id)) continue;
      if (!template.isActive) {
        handled.add(template.id);
        result.skipped.push({ template: template.name, reason: 'template_inactive' });
        continue;
      }
      await enqueue(template, [...callerConditions, rule.conditions], input.delay_hours ?? rule.delayHours);
    }

    const templates = await automation.triggeredTemplates(input.event);
    for (const template of templates) {
      if (handled.has(template.id)) continue;
      await enqueue(template, callerConditions, input.delay_hours);
    }
  });
  return result;
}

/** Welcome series after signup; variables such as user_name, signup_source, onboarding_url. */
export function triggerUserSignup(db: DbOrTx, userId: string, variables: Record<string, unknown> = {}): Promise<TriggerEventResult> {
  return triggerEvent(db, { event: 'user_signup', user_id: userId, template_variables: variables });
}

export interface EmailVerificationData {
  /** The link in the email: `${APP_URL}/verify-email?token=<token>` (CONTRACTS §7). */
  verification_url: string;
  user_name?: string;
  /** One queue row per token, so a retried call does not email twice. */
  idempotency_key?: string;
}

/**
 * The verify_email template to the account's address. Transactional: sent whatever the notification
 * settings say. The caller makes the token and keeps only its hash; the link lives in the queue row
 * only until the worker sends it (credentials.ts: it is marked a credential and redacted then).
 */
export function triggerEmailVerification(db: DbOrTx, userId: string, data: EmailVerificationData): Promise<TriggerEventResult> {
  const { idempotency_key, ...variables } = data;
  return triggerEvent(db, { event: 'email_verification', user_id: userId, idempotency_key, template_variables: variables, sensitive_variables: ['verification_url'] });
}

export interface MagicLinkData {
  /** The link in the email: `${APP_URL}/auth/magic?token=<token>` (CONTRACTS §10). */
  magic_link_url: string;
  user_name?: string;
  /** One queue row per token, so a retried call does not email twice. */
  idempotency_key?: string;
}

/** The magic_link template (sign in without a password) to the account's address. Transactional, like verify_email. */
export function triggerMagicLink(db: DbOrTx, userId: string, data: MagicLinkData): Promise<TriggerEventResult> {
  const { idempotency_key, ...variables } = data;
  return triggerEvent(db, { event: 'magic_link', user_id: userId, idempotency_key, template_variables: variables, sensitive_variables: ['magic_link_url'] });
}

export interface StoryReminderData {
  story_id: string;
  story_title: string;
  last_updated: string | Date;
  /** The link in the email. Without it, built as `<app_url>/stories/<story_id>` when app_url is given. */
  story_url?: string;
  app_url?: string;
  /** Extra template variables, e.g. user_name. */
  [variable: string]: unknown;
}

/** Nudge to continue a story; filed under the story_updates switch. */
export function triggerStoryReminder(db: DbOrTx, userId: string, data: StoryReminderData): Promise<TriggerEventResult> {
  const { app_url, ...variables } = data;
  const lastUpdated = data.last_updated instanceof Date ? data.last_updated.toISOString() : data.last_updated;
  const storyUrl = data.story_url ?? (app_url ? `${app_url.replace(/\/+$/, '')}/stories/${encodeURIComponent(data.story_id)}` : undefined);
  return triggerEvent(db, {
    event: 'story_reminder',
    user_id: userId,
    kind: 'story_updates',
    template_variables: { ...variables, last_updated: lastUpdated, ...(storyUrl ? { story_url: storyUrl } : {}) },
  });
}

export interface FamilyInvitationData {
  family_id: string;
  family_name: string;
  inviter_name: string;
  invitation_token: string;
  /** The invitee's address; without it the email goes to userId's account. */
  to_email?: string;
  delay_hours?: number;
  /** The link in the email. Without it, built as `<app_url>/invite/<token>` when app_url is given. */
  invitation_url?: string;
  app_url?: string;
  /** E.g. `invite:<invitation id>:<send no>`, so a retried request does not email twice. */
  idempotency_key?: string;
  [variable: string]: unknown;
}

/**
 * Invitation to join a family. userId is the account that triggered it (segments are evaluated on it);
 * with to_email the recipient is that address (and its account, if one exists).
 */
export function triggerFamilyInvitation(db: DbOrTx, userId: string, data: FamilyInvitationData): Promise<TriggerEventResult> {
  const { to_email, delay_hours, app_url, idempotency_key, ...variables } = data;
  const invitationUrl = data.invitation_url ?? (app_url ? `${app_url.replace(/\/+$/, '')}/invite/${encodeURIComponent(data.invitation_token)}` : undefined);
  return triggerEvent(db, {
    event: 'family_invitation',
    user_id: userId,
    to_email,
    delay_hours,
    idempotency_key,
    kind: 'family_invitations',
    template_variables: { ...variables, ...(invitationUrl ? { invitation_url: invitationUrl } : {}) },
    sensitive_variables: ['invitation_token', 'invitation_url'],
  });
}
