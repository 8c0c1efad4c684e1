// The settings sections of spec 000 "Settings tables": each section is one table, and each field is one of
// its columns under the spec's snake_case name. The zod schema of a field is its allowed values (enums
// and ranges); the default is the column's own default, so the table definition stays the one source.
// Values the spec leaves open (writing prompt frequency, story privacy, the assistant's style, pace and
// question frequency) are closed lists decided here, so a settings screen can offer them.
import { z } from 'zod';
import {
  ENHANCEMENT_STYLES,
  PROFILE_VISIBILITIES,
  RECORDING_QUALITIES,
  REMINDER_FREQUENCIES,
  SUGGESTION_LEVELS,
  TEXT_SIZES,
  TRANSCRIPTION_ACCURACIES,
  userGrammarSettings,
  userNotificationSettings,
  userPrivacySettings,
  userSettings,
  userVoiceSettings,
} from '@story/db';
import { timezoneField } from './timezone';

export const WRITING_PROMPT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const STORY_PRIVACIES = ['private', 'family', 'public'] as const;
export const ASSISTANT_RESPONSE_STYLES = ['concise', 'detailed', 'conversational'] as const;
export const ASSISTANT_QUESTION_FREQUENCIES = ['minimal', 'moderate', 'frequent'] as const;
export const ASSISTANT_CONVERSATION_PACES = ['slow', 'natural', 'fast'] as const;

/** A language tag as BCP 47 writes it (en, en-GB, pt-BR, zh-Hant), within the varchar(10) column. */
const language = z
  .string()
  .max(10, 'at most 10 characters')
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,4})?$/, 'must be a language tag such as en or en-GB');
/** time column: HH:MM or HH:MM:SS, 24-hour. */
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time of day as HH:MM or HH:MM:SS');
const flag = z.boolean();

export const uiFields = {
  preferred_language: language,
  dark_mode: flag,
  text_size_preference: z.enum(TEXT_SIZES),
  high_contrast_mode: flag,
  reduce_motion: flag,
  screen_reader_optimized: flag,
  system_announcements: flag,
  sound_notifications: flag,
  writing_prompts: flag,
  writing_prompt_frequency: z.enum(WRITING_PROMPT_FREQUENCIES),
  auto_save_enabled: flag,
  auto_save_interval_minutes: z.number().int('must be a whole number').min(1, 'at least 1').max(120, 'at most 120'),
  show_writing_tips: flag,
  show_onboarding_hints: flag,
};

export const notificationFields = {
  email_enabled: flag,
  story_updates: flag,
  family_invitations: flag,
  weekly_digest: flag,
  marketing_emails: flag,
  sms_enabled: flag,
  story_comments: flag,
  collaboration_updates: flag,
  push_enabled: flag,
  writing_reminders: flag,
  reminder_frequency: z.enum(REMINDER_FREQUENCIES),
  reminder_time: timeOfDay,
};

export const grammarFields = {
  grammar_enabled: flag,
  auto_correct: flag,
  suggestion_level: z.enum(SUGGESTION_LEVELS),
  tone_suggestions: flag,
  clarity_suggestions: flag,
  ai_enhancement_enabled: flag,
  enhancement_style: z.enum(ENHANCEMENT_STYLES),
};

export const privacyFields = {
  profile_visibility: z.enum(PROFILE_VISIBILITIES),
  show_in_directory: flag,
  allow_story_discovery: flag,
  default_story_privacy: z.enum(STORY_PRIVACIES),
  allow_family_collaboration: flag,
  require_approval_for_shares: flag,
  analytics_enabled: flag,
  improvement_data_sharing: flag,
  marketing_data_usage: flag,
  /** Beyond the spec's table: keep GPS location in stored photos (default off: it is stripped; see images/). */
  keep_photo_location: flag,
};

export const voiceFields = {
  recording_quality: z.enum(RECORDING_QUALITIES),
  noise_reduction: flag,
  auto_transcription: flag,
  voice_enhancement: flag,
  preferred_language: language,
  transcription_accuracy: z.enum(TRANSCRIPTION_ACCURACIES),
  assistant_response_style: z.enum(ASSISTANT_RESPONSE_STYLES),
  assistant_question_frequency: z.enum(ASSISTANT_QUESTION_FREQUENCIES),
  assistant_conversation_pace: z.enum(ASSISTANT_CONVERSATION_PACES),
};

/** GET /api/settings/voice answers exactly these (spec 000 Settings); the other two are voice preferences. */
export const VOICE_SETTINGS_KEYS = [
  'recording_quality',
  'noise_reduction',
  'auto_transcription',
  'voice_enhancement',
  'assistant_response_style',
  'assistant_question_frequency',
  'assistant_conversation_pace',
] as const;

/** The five keyed tables, by the section name used in the paths. */
export const SECTIONS = {
  ui: { table: userSettings, fields: uiFields },
  notifications: { table: userNotificationSettings, fields: notificationFields },
  grammar: { table: userGrammarSettings, fields: grammarFields },
  privacy: { table: userPrivacySettings, fields: privacyFields },
  voice: { table: userVoiceSettings, fields: voiceFields },
} as const;
export type SectionName = keyof typeof SECTIONS;
export const SECTION_NAMES = Object.keys(SECTIONS) as SectionName[];

/** The time zone is a profile field (profiles.timezone, its one home) that the UI section also reads and writes. */
export const uiTimezoneField = { timezone: timezoneField };

/** Allowed values per enumerated field, for settings screens (GET /api/settings/voice-preferences, /app). */
export function enumOptions(fields: Record<string, z.ZodType>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, schema] of Object.entries(fields)) {
    if (schema instanceof z.ZodEnum) out[name] = [...(schema.options as readonly string[])];
  }
  return out;
}
