// The per-user settings tables of spec 000 "Settings tables": one row per user in each of the five
// keyed tables (created at signup), plus data exports and push devices. Each setting lives in one table:
// the time zone is profiles.timezone (the memories page and exports read it there), not a user_settings column.
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, time, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

const userIdPk = () =>
  uuid('user_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' });

export const TEXT_SIZES = ['small', 'medium', 'large', 'extra-large'] as const;
export const userSettings = pgTable(
  'user_settings',
  {
    userId: userIdPk(),
    preferredLanguage: varchar('preferred_language', { length: 10 }).notNull().default('en'),
    darkMode: boolean('dark_mode').notNull().default(false),
    textSizePreference: varchar('text_size_preference', { length: 20 }).notNull().default('medium'),
    highContrastMode: boolean('high_contrast_mode').notNull().default(false),
    reduceMotion: boolean('reduce_motion').notNull().default(false),
    screenReaderOptimized: boolean('screen_reader_optimized').notNull().default(false),
    systemAnnouncements: boolean('system_announcements').notNull().default(true),
    soundNotifications: boolean('sound_notifications').notNull().default(true),
    writingPrompts: boolean('writing_prompts').notNull().default(true),
    writingPromptFrequency: varchar('writing_prompt_frequency', { length: 20 }).notNull().default('weekly'),
    autoSaveEnabled: boolean('auto_save_enabled').notNull().default(true),
    autoSaveIntervalMinutes: integer('auto_save_interval_minutes').notNull().default(5),
    showWritingTips: boolean('show_writing_tips').notNull().default(true),
    showOnboardingHints: boolean('show_onboarding_hints').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check('user_settings_text_size_check', oneOf('text_size_preference', TEXT_SIZES)),
    check('user_settings_auto_save_interval_check', sql`auto_save_interval_minutes BETWEEN 1 AND 120`),
  ],
);

export const REMINDER_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const userNotificationSettings = pgTable(
  'user_notification_settings',
  {
    userId: userIdPk(),
    /** Master switch for every email (the email queue checks it at enqueue and at send). */
    emailEnabled: boolean('email_enabled').notNull().default(true),
    storyUpdates: boolean('story_updates').notNull().default(true),
    familyInvitations: boolean('family_invitations').notNull().default(true),
    weeklyDigest: boolean('weekly_digest').notNull().default(true),
    marketingEmails: boolean('marketing_emails').notNull().default(false),
    smsEnabled: boolean('sms_enabled').notNull().default(false),
    storyComments: boolean('story_comments').notNull().default(true),
    collaborationUpdates: boolean('collaboration_updates').notNull().default(true),
    pushEnabled: boolean('push_enabled').notNull().default(true),
    writingReminders: boolean('writing_reminders').notNull().default(false),
    reminderFrequency: text('reminder_frequency').notNull().default('weekly'),
    reminderTime: time('reminder_time').notNull().default('09:00:00'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [check('user_notification_settings_frequency_check', oneOf('reminder_frequency', REMINDER_FREQUENCIES))],
);

export const SUGGESTION_LEVELS = ['light', 'moderate', 'comprehensive'] as const;
export const ENHANCEMENT_STYLES = ['preserve', 'improve', 'transform'] as const;
export const userGrammarSettings = pgTable(
  'user_grammar_settings',
  {
    userId: userIdPk(),
    grammarEnabled: boolean('grammar_enabled').notNull().default(true),
    autoCorrect: boolean('auto_correct').notNull().default(false),
    suggestionLevel: text('suggestion_level').notNull().default('moderate'),
    toneSuggestions: boolean('tone_suggestions').notNull().default(true),
    claritySuggestions: boolean('clarity_suggestions').notNull().default(true),
    aiEnhancementEnabled: boolean('ai_enhancement_enabled').notNull().default(false),
    enhancementStyle: text('enhancement_style').notNull().default('preserve'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check('user_grammar_settings_level_check', oneOf('suggestion_level', SUGGESTION_LEVELS)),
    check('user_grammar_settings_style_check', oneOf('enhancement_style', ENHANCEMENT_STYLES)),
  ],
);

export const PROFILE_VISIBILITIES = ['public', 'family', 'private'] as const;
export const userPrivacySettings = pgTable(
  'user_privacy_settings',
  {
    userId: userIdPk(),
    profileVisibility: text('profile_visibility').notNull().default('private'),
    showInDirectory: boolean('show_in_directory').notNull().default(false),
    allowStoryDiscovery: boolean('allow_story_discovery').notNull().default(false),
    defaultStoryPrivacy: varchar('default_story_privacy', { length: 20 }).notNull().default('private'),
    allowFamilyCollaboration: boolean('allow_family_collaboration').notNull().default(true),
    requireApprovalForShares: boolean('require_approval_for_shares').notNull().default(true),
    analyticsEnabled: boolean('analytics_enabled').notNull().default(true),
    improvementDataSharing: boolean('improvement_data_sharing').notNull().default(true),
    marketingDataUsage: boolean('marketing_data_usage').notNull().default(false),
    /**
     * Keep GPS location (EXIF) in stored copies of uploaded photos; off (the default): it is stripped, so a
     * shared photo never gives away where it was taken.
     */
    keepPhotoLocation: boolean('keep_photo_location').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [check('user_privacy_settings_visibility_check', oneOf('profile_visibility', PROFILE_VISIBILITIES))],
);

export const RECORDING_QUALITIES = ['standard', 'high', 'premium'] as const;
export const TRANSCRIPTION_ACCURACIES = ['speed', 'balanced', 'accuracy'] as const;
export const userVoiceSettings = pgTable(
  'user_voice_settings',
  {
    userId: userIdPk(),
    recordingQuality: text('recording_quality').notNull().default('high'),
    noiseReduction: boolean('noise_reduction').notNull().default(true),
    autoTranscription: boolean('auto_transcription').notNull().default(true),
    voiceEnhancement: boolean('voice_enhancement').notNull().default(false),
    preferredLanguage: varchar('preferred_language', { length: 10 }).notNull().default('en'),
    transcriptionAccuracy: text('transcription_accuracy').notNull().default('balanced'),
    assistantResponseStyle: text('assistant_response_style').notNull().default('concise'),
    assistantQuestionFrequency: text('assistant_question_frequency').notNull().default('moderate'),
    assistantConversationPace: text('assistant_conversation_pace').notNull().default('natural'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check('user_voice_settings_quality_check', oneOf('recording_quality', RECORDING_QUALITIES)),
    check('user_voice_settings_accuracy_check', oneOf('transcription_accuracy', TRANSCRIPTION_ACCURACIES)),
  ],
);

export const DATA_EXPORT_TYPES = ['stories', 'profile', 'all'] as const;
export const DATA_EXPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
/** File formats of a data export (GET /api/user/data-export?format=...). */
export const DATA_EXPORT_FORMATS = ['json', 'pdf', 'zip'] as const;
export const userDataExports = pgTable(
  'user_data_exports',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    exportType: text('export_type').notNull(),
    /** json, pdf or zip: the file the job produces. */
    format: text('format').notNull().default('json'),
    status: text('status').notNull().default('pending'),
    /** The download route of the finished file (served with the owner's Bearer token). */
    fileUrl: text('file_url'),
    /** Where the finished file is in object storage (never shown; file_url is the way to it). */
    storageKey: text('storage_key'),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }),
    error: text('error'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('user_data_exports_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    check('user_data_exports_type_check', oneOf('export_type', DATA_EXPORT_TYPES)),
    check('user_data_exports_status_check', oneOf('status', DATA_EXPORT_STATUSES)),
    check('user_data_exports_format_check', oneOf('format', DATA_EXPORT_FORMATS)),
  ],
);

export const DEVICE_PLATFORMS = ['ios', 'android', 'web'] as const;
export const userDevices = pgTable(
  'user_devices',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    pushToken: text('push_token').notNull(),
    deviceName: text('device_name'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('user_devices_user_id_idx').on(t.userId),
    uniqueIndex('user_devices_push_token_key').on(t.pushToken),
    check('user_devices_platform_check', oneOf('platform', DEVICE_PLATFORMS)),
  ],
);
