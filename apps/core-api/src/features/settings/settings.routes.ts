// /api/settings (spec 000 Settings), authenticated scope: every route reads and writes the caller's own
// rows only, so there is no id to check. /api/settings/data-export belongs to the data-export feature.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { SectionName } from './settings.fields';
import { answers, appAnswer, bodies, profileAnswer, voicePreferencesAnswer } from './settings.schemas';
import type { SettingsService } from './settings.service';

const tags = ['settings'];
const security = [{ bearerAuth: [] }];
const readErrors = errorResponses(coreErrorSchema, [401, 429] as const);
const writeErrors = errorResponses(coreErrorSchema, [400, 401, 413, 415, 429] as const);

const TITLES: Record<Exclude<SectionName, 'voice'>, { op: string; what: string }> = {
  ui: { op: 'UiSettings', what: 'display, accessibility and writing-aid settings (user_settings; timezone is the profile time zone)' },
  notifications: { op: 'NotificationSettings', what: 'notification settings (user_notification_settings)' },
  grammar: { op: 'GrammarSettings', what: 'grammar and writing-assistance settings (user_grammar_settings)' },
  privacy: { op: 'PrivacySettings', what: 'privacy settings (user_privacy_settings)' },
};

export const settingsRoutes =
  ({ settings }: { settings: SettingsService }): FastifyPluginAsyncZod =>
  async (app) => {
    for (const section of Object.keys(TITLES) as (keyof typeof TITLES)[]) {
      const { op, what } = TITLES[section];
      app.get(
        `/${section}`,
        {
          schema: {
            operationId: `get${op}`,
            summary: `The caller's ${what}; the spec's defaults until first changed`,
            tags,
            security,
            response: { 200: answers[section], ...readErrors },
          },
        },
        async (req) => settings.readSection(section, callerOf(req).userId),
      );
      app.put(
        `/${section}`,
        {
          schema: {
            operationId: `update${op}`,
            summary: `Change some of the caller's ${what}: only the fields sent change`,
            tags,
            security,
            body: bodies[section],
            response: { 200: answers[section], ...writeErrors },
          },
        },
        async (req) => settings.updateSection(section, callerOf(req).userId, req.body),
      );
    }

    app.get(
      '/voice',
      {
        schema: {
          operationId: 'getVoiceSettings',
          summary: "The caller's voice recording and assistant settings (user_voice_settings)",
          description: 'Answers exactly {settings: {recording_quality, noise_reduction, auto_transcription, voice_enhancement, assistant_response_style, assistant_question_frequency, assistant_conversation_pace}}; preferred_language and transcription_accuracy are in /api/settings/voice-preferences.',
          tags,
          security,
          response: { 200: answers.voice, ...readErrors },
        },
      },
      async (req) => settings.readVoice(callerOf(req).userId),
    );
    const updateVoice = async (req: { body: Record<string, unknown> } & Parameters<typeof callerOf>[0]) => {
      await settings.updateSection('voice', callerOf(req).userId, req.body);
      return settings.readVoice(callerOf(req).userId);
    };
    for (const method of ['put', 'post'] as const) {
      app[method](
        '/voice',
        {
          schema: {
            operationId: method === 'put' ? 'updateVoiceSettings' : 'updateVoiceSettingsPost',
            summary: 'Change some voice settings (PUT and POST are the same update); answers as GET',
            tags,
            security,
            body: bodies.voice,
            response: { 200: answers.voice, ...writeErrors },
          },
        },
        async (req) => updateVoice(req),
      );
    }

    app.get(
      '/voice-preferences',
      {
        schema: {
          operationId: 'getVoicePreferences',
          summary: 'Every voice setting (with preferred_language and transcription_accuracy) and the values each choice allows',
          tags,
          security,
          response: { 200: voicePreferencesAnswer, ...readErrors },
        },
      },
      async (req) => settings.voicePreferences(callerOf(req).userId),
    );

    app.get(
      '/profile',
      {
        schema: {
          operationId: 'getProfileSettings',
          summary: "The caller's profile: names (first and last derived from full_name), time zone, family download switch; email read-only",
          tags,
          security,
          response: { 200: profileAnswer, ...errorResponses(coreErrorSchema, [401, 404, 429] as const) },
        },
      },
      async (req) => settings.readProfile(callerOf(req).userId),
    );
    app.put(
      '/profile',
      {
        schema: {
          operationId: 'updateProfileSettings',
          summary: 'Change some profile fields; only the fields sent change',
          description:
            'email is read-only: the current address sent back is ignored, a different one is refused with 400 naming email. ' +
            'first_name/last_name may be sent instead of full_name (the name is rebuilt from them); timezone must be an IANA zone.',
          tags,
          security,
          body: bodies.profile,
          response: { 200: profileAnswer, ...errorResponses(coreErrorSchema, [400, 401, 404, 413, 415, 429] as const) },
        },
      },
      async (req) => settings.updateProfile(callerOf(req).userId, req.body),
    );

    app.get(
      '/app',
      {
        schema: {
          operationId: 'getAppSettings',
          summary: 'Every settings section and the profile at once, with the allowed values of each choice',
          tags,
          security,
          response: { 200: appAnswer, ...errorResponses(coreErrorSchema, [401, 404, 429] as const) },
        },
      },
      async (req) => settings.app(callerOf(req).userId),
    );
  };
