// @story/email: template rendering, consent checks, unsubscribe links, A/B arms and the enqueue side of
// the email queue. Callers (core-api in-process, email-service) write rows here; sending lives in the worker.
export { abArmFor, type AbArm } from './ab-split';
export {
  EVENT_KINDS,
  USER_SEGMENTS,
  triggerEmailVerification,
  triggerMagicLink,
  triggerEvent,
  triggerFamilyInvitation,
  triggerStoryReminder,
  triggerUserSignup,
  type EmailVerificationData,
  type MagicLinkData,
  type FamilyInvitationData,
  type StoryReminderData,
  type TriggerEventInput,
  type TriggerEventResult,
} from './automation';
export { KNOWN_CREDENTIAL_VARIABLES, REDACTED, credentialVariables, redactQueuedEmail, type QueuedEmailContent } from './credentials';
export { enqueueTemplate, type EnqueueInput, type EnqueueResult, type TemplateRef } from './enqueue';
export { checkDeliverable, checkDeliverableMany, normalizeEmail, suppressAddress, type Deliverability, type DeliverabilityQuery, type NotificationKind, type SuppressInput } from './preferences';
export { MissingVariablesError, escapeHtml, placeholdersIn, renderEmail, renderTemplate, type RenderableTemplate, type RenderedEmail } from './render';
export { applyUnsubscribe, createUnsubscribeTokens, currentUnsubscribeVersion, unsubscribeHeaders, type UnsubscribePayload, type UnsubscribeTokens } from './unsubscribe';
export type { EmailCategory } from '@story/db';
export * from './erasure';
