// zod schemas of /api/settings: request bodies take any subset of a section's fields (unknown fields are
// a 400 naming them), answers carry every field of the section under the spec's snake_case names.
import { z } from 'zod';
import { grammarFields, notificationFields, privacyFields, uiFields, uiTimezoneField, VOICE_SETTINGS_KEYS, voiceFields } from './settings.fields';
import { nameParts, profileFields } from './profile.fields';

type Shape = Record<string, z.ZodType>;

const partialBody = (shape: Shape) => z.strictObject(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional()])));

/** Answers are written from stored rows: the value types are declared, the write-time rules are not re-run. */
function loose(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodEnum) return schema;
  if (schema instanceof z.ZodBoolean) return z.boolean();
  if (schema instanceof z.ZodNumber) return z.number();
  if (schema instanceof z.ZodNullable) return loose(schema.unwrap() as z.ZodType).nullable();
  return z.string();
}
const answer = (shape: Shape) => z.object(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, loose(s)])));

const sectionAnswer = (shape: Shape) => z.object({ settings: answer(shape), updated_at: z.string().nullable() });

export const bodies = {
  ui: partialBody({ ...uiFields, ...uiTimezoneField }),
  notifications: partialBody(notificationFields),
  grammar: partialBody(grammarFields),
  privacy: partialBody(privacyFields),
  voice: partialBody(voiceFields),
  profile: partialBody({
    ...profileFields,
    ...nameParts,
    email: z.string().max(320).optional().meta({ description: 'read-only: the current address is ignored, another one is refused (400)' }),
  }),
};

export const answers = {
  ui: sectionAnswer({ ...uiFields, ...uiTimezoneField }),
  notifications: sectionAnswer(notificationFields),
  grammar: sectionAnswer(grammarFields),
  privacy: sectionAnswer(privacyFields),
  voice: z.object({ settings: answer(Object.fromEntries(VOICE_SETTINGS_KEYS.map((k) => [k, voiceFields[k]]))) }),
};

export const profileView = z.object({
  id: z.uuid(),
  email: z.string(),
  email_verified: z.boolean(),
  ...answer(profileFields).shape,
  first_name: z.string(),
  last_name: z.string(),
  subscription_tier: z.string(),
  subscription_status: z.string().nullable(),
  updated_at: z.string().nullable(),
});

export const profileAnswer = z.object({
  profile: profileView,
  descriptions: z.object({ email: z.string(), memories_family_download: z.string() }),
});

const options = z.record(z.string(), z.array(z.string()));

export const voicePreferencesAnswer = z.object({ preferences: answer(voiceFields), options, updated_at: z.string().nullable() });

export const appAnswer = z.object({
  app: z.object({ service: z.string(), version: z.string() }),
  profile: profileView,
  settings: z.object({
    ui: answer({ ...uiFields, ...uiTimezoneField }),
    notifications: answer(notificationFields),
    grammar: answer(grammarFields),
    privacy: answer(privacyFields),
    voice: answer(voiceFields),
  }),
  options: z.record(z.string(), options),
});
