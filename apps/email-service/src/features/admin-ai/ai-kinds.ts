// AI settings records of the admin API, stored and audited like the editorial records (RecordKind):
//   /api/admin/ai/voices            text-to-speech voices offered to users (dashboard ai-management/voices)
//   /api/admin/ai/provider-configs  which provider and model serve a capability, per feature (dashboard
//                                   ai-providers); libs/providers applies the llm rows at run time.
import { z } from 'zod';
import { AI_CAPABILITIES, aiProviderConfigs, voices } from '@story/db';
import { badRequest } from '@story/http';
import type { RecordKind } from '../admin-content/content-kinds';

/** Real provider names per capability (CONTRACTS §4). */
export const PROVIDERS_BY_CAPABILITY: Record<(typeof AI_CAPABILITIES)[number], readonly string[]> = {
  llm: ['openai', 'anthropic', 'local'],
  tts: ['elevenlabs', 'local'],
  stt: ['google', 'deepgram'],
};

const optText = (max: number) => z.string().trim().max(max).nullish();
const settings = z.record(z.string(), z.unknown());

export const aiKinds = {
  voice: {
    table: voices,
    path: '/api/admin/ai/voices',
    op: 'Voice',
    moderated: false,
    unique: 'voice_id',
    search: ['name', 'voiceId', 'accent', 'language'],
    create: z.object({
      voice_id: z.string().trim().min(1).max(200),
      provider: z.enum(['elevenlabs', 'local']),
      name: z.string().trim().min(1).max(200),
      category: optText(100),
      gender: optText(50),
      accent: optText(100),
      language: optText(20),
      preview_url: z.url({ protocol: /^https?$/ }).max(2000).nullish(),
      settings: settings.optional(),
      is_active: z.boolean().optional(),
    }),
  },
  ai_provider_config: {
    table: aiProviderConfigs,
    path: '/api/admin/ai/provider-configs',
    op: 'AiProviderConfig',
    moderated: false,
    search: ['provider', 'model', 'feature'],
    create: z.object({
      capability: z.enum(AI_CAPABILITIES),
      /** A product feature as recorded in ai_usage_logs.feature; null: every feature of the capability. */
      feature: z.string().trim().min(1).max(100).nullish(),
      provider: z.string().trim().min(1).max(50),
      model: optText(200),
      is_active: z.boolean().optional(),
      priority: z.number().int().min(0).max(1000).optional(),
      settings: settings.optional(),
    }),
    validate: (row) => {
      const allowed = PROVIDERS_BY_CAPABILITY[row['capability'] as keyof typeof PROVIDERS_BY_CAPABILITY] ?? [];
      if (!allowed.includes(row['provider'] as string)) {
        throw badRequest(`provider must be one of ${allowed.join(', ')} for capability ${String(row['capability'])}`, { field: 'provider', details: { field: 'provider', allowed } });
      }
    },
  },
} satisfies Record<string, RecordKind>;
