// POST /api/transcribe, GET/POST/PUT /api/tts/:provider (authenticated scope with multipart registered).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { badRequest, coreErrorSchema, errorResponses, multipartBody, routeMedia, type RateLimitHandle } from '@story/http';
import { MAX_TTS_CHARACTERS } from '@story/providers';
import { MULTIPART_FILE_LIMIT_BYTES, readMultipartAudio, requireAudio } from './audio-upload';
import { abortOnDisconnect, sendSynthesis } from './audio-reply';
import { TRANSCRIBE_PROVIDER_CHOICES, type SpeechService, type TranscribeProviderChoice } from './speech.service';

const LANGUAGE = /^(?:auto|[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)$/;
const MAX_PROMPT_CHARACTERS = 2000;

export const transcribeResponse = z.object({
  success: z.literal(true),
  transcript: z.string(),
  provider: z.string().describe('The real provider: google, deepgram or local (the offline recogniser, English only)'),
  confidence: z.number().min(0).max(1),
  language: z.string(),
  cost: z.number().describe('USD'),
  duration: z.number().describe('Seconds of audio'),
  metadata: z.object({
    audioSize: z.number().int(),
    audioType: z.string(),
    processingTime: z.number().describe('Milliseconds'),
    words: z.number().int().optional(),
    model: z.string().optional().describe('The model that made the transcript, when the provider names it (local: moonshine-base or moonshine-tiny)'),
  }),
});

const voice = z.object({
  voice_id: z.string(),
  name: z.string(),
  category: z.string(),
  gender: z.string().nullable(),
  accent: z.string().nullable(),
  preview_url: z.string().nullable(),
});

/** Text to speak: not blank, at most 5000 characters (ElevenLabs' own limit, kept for every provider). */
export const speechText = z
  .string()
  .max(MAX_TTS_CHARACTERS, `must be at most ${MAX_TTS_CHARACTERS} characters`)
  .refine((s) => s.trim().length > 0, 'must not be empty');

const ttsBody = z.object({
  text: speechText,
  voice_id: z.string().trim().min(1).max(100).optional(),
  voice_settings: z
    .object({
      stability: z.number().min(0).max(1).optional(),
      similarity_boost: z.number().min(0).max(1).optional(),
      style: z.number().min(0).max(1).optional(),
    })
    .optional(),
  model_id: z.string().trim().min(1).max(100).optional(),
  output_format: z
    .string()
    .regex(/^[a-z0-9_]{1,40}$/, 'must be a format name such as mp3_44100_128')
    .optional(),
});

const providerParams = z.object({ provider: z.string().min(1).max(40) });

/** The text parts of POST /api/transcribe, for the document (the handler checks each as it reads it). */
const transcribeFields = z.object({
  language: z.string().max(40).regex(LANGUAGE).optional().describe("A language code such as en or en-US, or 'auto'"),
  provider: z.enum(TRANSCRIBE_PROVIDER_CHOICES).optional().describe('Default auto'),
  prompt: z.string().max(MAX_PROMPT_CHARACTERS).optional().describe('Names and places that help recognition'),
});

/** The MP3 answer of the speech routes, with the headers that describe it. */
export const mp3Answer = routeMedia({
  answers: { 200: { types: ['audio/mpeg'], description: 'MP3 audio, streamed as it is synthesized' } },
  headers: {
    200: {
      'X-Provider': { description: 'The text-to-speech provider that spoke it', schema: { type: 'string' } },
      'X-Voice-ID': { description: 'The voice used', schema: { type: 'string' } },
      'X-Character-Count': { description: 'Characters synthesized', schema: { type: 'integer' } },
      'X-Estimated-Cost': { description: 'Estimated cost in USD', schema: { type: 'string' } },
    },
  },
});

/** MP3 audio, streamed; the JSON body of the error statuses is declared beside it. */
export const audioStream = z.unknown().describe('audio/mpeg stream');

const ttsHeadersDoc =
  'MP3 audio streamed as it is synthesized, with headers Content-Type audio/mpeg, X-Provider, X-Voice-ID, X-Character-Count and X-Estimated-Cost (USD).';

export const speechRoutes =
  ({ speech, rateLimit }: { speech: SpeechService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/transcribe',
      {
        config: { rateLimit: rateLimit.route('core.uploads') },
        schema: {
          operationId: 'transcribeAudio',
          summary: 'Transcribe one audio file (multipart: audio, language, provider, prompt)',
          description:
            "multipart/form-data: audio (required file, at most 8 MB, audio or video), language (code or 'auto'), provider ('stt_primary', 'stt_fallback' or 'auto'), prompt (names and places that help recognition). 503 when no speech provider is configured.",
          tags: ['speech'],
          security: [{ bearerAuth: [] }],
          ...routeMedia({
            requestBody: multipartBody({
              file: { names: ['audio'], types: ['audio/*', 'video/*'], maxBytes: MULTIPART_FILE_LIMIT_BYTES, description: 'The audio to transcribe' },
              fields: transcribeFields,
            }),
          }),
          response: { 200: transcribeResponse, ...errorResponses(coreErrorSchema, [400, 401, 413, 429, 502, 503, 504] as const) },
        },
      },
      async (req) => {
        const { file, fields } = await readMultipartAudio(req, 'audio');
        const language = fields['language']?.trim() || undefined;
        if (language !== undefined && !LANGUAGE.test(language)) {
          throw badRequest("language must be a language code such as en or en-US, or 'auto'", { field: 'language' });
        }
        const provider = (fields['provider']?.trim() || 'auto') as TranscribeProviderChoice;
        if (!TRANSCRIBE_PROVIDER_CHOICES.includes(provider)) {
          throw badRequest("provider must be 'stt_primary', 'stt_fallback' or 'auto'", { field: 'provider' });
        }
        const prompt = fields['prompt']?.trim() || undefined;
        if (prompt !== undefined && prompt.length > MAX_PROMPT_CHARACTERS) {
          throw badRequest(`prompt must be at most ${MAX_PROMPT_CHARACTERS} characters`, { field: 'prompt' });
        }
        const audio = await requireAudio(file, 'audio');
        return { success: true as const, ...(await speech.transcribe({ audio, language, provider, prompt, userId: callerOf(req).userId })) };
      },
    );

    app.get(
      '/api/tts/:provider',
      {
        schema: {
          operationId: 'listTtsVoices',
          summary: 'Voices of a text-to-speech provider (elevenlabs or local)',
          tags: ['speech'],
          security: [{ bearerAuth: [] }],
          params: providerParams,
          response: { 200: z.object({ voices: z.array(voice), total: z.number().int() }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429, 502, 503, 504] as const) },
        },
      },
      async (req) => speech.voices(req.params.provider),
    );

    for (const method of ['POST', 'PUT'] as const) {
      const realtime = method === 'PUT';
      app.route({
        method,
        url: '/api/tts/:provider',
        schema: {
          operationId: realtime ? 'streamTtsSpeech' : 'synthesizeTtsSpeech',
          summary: realtime ? 'Stream speech for real-time playback (chunked, not cached)' : 'Synthesize speech as an MP3 stream',
          description: ttsHeadersDoc,
          tags: ['speech'],
          security: [{ bearerAuth: [] }],
          params: providerParams,
          body: ttsBody,
          ...mp3Answer,
          response: { 200: audioStream, ...errorResponses(coreErrorSchema, [400, 401, 404, 413, 415, 429, 502, 503, 504] as const) },
        },
        handler: async (req, reply) => {
          const body = req.body;
          const synthesis = await speech.synthesize(req.params.provider, {
            text: body.text,
            voiceId: body.voice_id,
            modelId: body.model_id,
            outputFormat: body.output_format,
            voiceSettings: body.voice_settings,
            userId: callerOf(req).userId,
            feature: 'tts',
            signal: abortOnDisconnect(req, reply),
          });
          return sendSynthesis(reply, synthesis, { realtime });
        },
      });
    }
  };
