// The one place that decides which adapter serves each capability, from config. Apps
// build their providers here from the platform config; /health reports describeProviders().
import type { PlatformConfig } from '@story/config';
import type { Database } from '@story/db';
import { createBilling, type Billing } from './billing';
import { createEmailDelivery, type EmailDelivery } from './email';
import { createFeatureRouter, createLanguageModel, createManagedLanguageModel, createPromptStore, type LanguageModel, type LanguageModelConfig, type ManagedLanguageModel } from './llm';
import { createDbUsageRecorder, type UsageRecorder } from './shared/usage';
import { createGcsUploader, createSpeechToText, type SpeechRecognition } from './speech-to-text';
import { createObjectStorage, type ObjectStorage } from './storage';
import { createTextToSpeech, type TextToSpeechProviders } from './text-to-speech';

export interface Providers {
  storage: ObjectStorage;
  speech: SpeechRecognition;
  tts: TextToSpeechProviders;
  /** Built by createManagedLlm: the admin's prompt templates and per-feature provider choice apply to every call. */
  llm: LanguageModel;
  email: EmailDelivery;
  billing: Billing;
  usage: UsageRecorder;
}

export interface ProviderSummary {
  storage: string;
  speechToText: string[] | 'unavailable';
  textToSpeech: string[];
  llm: string;
  email: string;
  billing: string;
}

export function languageModelConfig(config: PlatformConfig): LanguageModelConfig {
  const p = config.providers;
  switch (p.LLM_PROVIDER) {
    case 'local':
      return { provider: 'local' };
    case 'openai':
      return { provider: 'openai', apiKey: p.OPENAI_API_KEY, baseUrl: p.OPENAI_BASE_URL, model: p.OPENAI_MODEL };
    case 'anthropic':
      // The config schema requires ANTHROPIC_API_KEY when LLM_PROVIDER=anthropic.
      return { provider: 'anthropic', apiKey: p.ANTHROPIC_API_KEY ?? '', baseUrl: p.ANTHROPIC_BASE_URL, model: p.ANTHROPIC_MODEL };
    default: {
      const unknown: never = p.LLM_PROVIDER;
      throw new Error(`Unknown LLM_PROVIDER: ${String(unknown)}`);
    }
  }
}

/**
 * The LLM adapter for a provider and model an admin chose (ai_provider_configs), with this deployment's
 * credentials; null when the provider is unknown or not configured here (the caller keeps its default).
 */
export function languageModelFor(config: PlatformConfig, provider: string, model: string | null, deps: { usage: UsageRecorder; timeoutMs?: number }): LanguageModel | null {
  const p = config.providers;
  switch (provider) {
    case 'local':
      return createLanguageModel({ provider: 'local' }, deps);
    case 'openai':
      if (!p.OPENAI_API_KEY && !p.OPENAI_BASE_URL) return null;
      return createLanguageModel({ provider: 'openai', apiKey: p.OPENAI_API_KEY, baseUrl: p.OPENAI_BASE_URL, model: model ?? p.OPENAI_MODEL }, deps);
    case 'anthropic':
      if (!p.ANTHROPIC_API_KEY) return null;
      return createLanguageModel({ provider: 'anthropic', apiKey: p.ANTHROPIC_API_KEY, baseUrl: p.ANTHROPIC_BASE_URL, model: model ?? p.ANTHROPIC_MODEL }, deps);
    default:
      return null;
  }
}

/** The environment's LLM wrapped with the admin's run-time settings (prompt templates, provider per feature). */
export function createManagedLlm(config: PlatformConfig, deps: { db: Database; usage: UsageRecorder; timeoutMs?: number }): ManagedLanguageModel {
  const llmDeps = { usage: deps.usage, timeoutMs: deps.timeoutMs };
  return createManagedLanguageModel({
    base: createLanguageModel(languageModelConfig(config), llmDeps),
    prompts: createPromptStore(deps.db),
    router: createFeatureRouter(deps.db),
    build: (provider, model) => languageModelFor(config, provider, model, llmDeps),
  });
}

export function createProviders(config: PlatformConfig, deps: { db: Database; publicBaseUrl: string; onUsageError?: (err: unknown) => void }): Providers {
  const usage = createDbUsageRecorder(deps.db, deps.onUsageError);
  const timeoutMs = config.providers.PROVIDER_TIMEOUT_MS;
  return {
    usage,
    storage: createObjectStorage(config.storage, { publicBaseUrl: deps.publicBaseUrl }),
    speech: createSpeechToText(config.providers, {
      usage,
      timeoutMs,
      // Google reads media of 14 MB or more from Cloud Storage; without a bucket such media goes to the fallback.
      googleGcsUri: config.providers.GOOGLE_STT_GCS_BUCKET
        ? createGcsUploader({
            bucket: config.providers.GOOGLE_STT_GCS_BUCKET,
            keyFilename: config.providers.GOOGLE_APPLICATION_CREDENTIALS,
            projectId: config.providers.GOOGLE_CLOUD_PROJECT,
            apiEndpoint: config.providers.GOOGLE_STORAGE_ENDPOINT,
          })
        : undefined,
    }),
    tts: createTextToSpeech(config.providers, { usage, timeoutMs }),
    llm: createManagedLlm(config, { db: deps.db, usage, timeoutMs }),
    email: createEmailDelivery(config.email),
    billing: createBilling({
      provider: config.providers.BILLING_PROVIDER,
      production: config.isProduction,
      offlineAcknowledged: config.providers.BILLING_OFFLINE_ACKNOWLEDGED,
    }),
  };
}

/** Which adapter serves each capability, for /health and start-up logs. */
export function describeProviders(providers: Omit<Providers, 'usage'>): ProviderSummary {
  return {
    storage: providers.storage.provider,
    speechToText: providers.speech.available ? providers.speech.providers : 'unavailable',
    textToSpeech: providers.tts.names,
    llm: providers.llm.model === providers.llm.provider ? providers.llm.provider : `${providers.llm.provider}:${providers.llm.model}`,
    email: providers.email.provider,
    billing: providers.billing.provider,
  };
}

/** The cache scope the AI prompt and provider-routing caches answer to on the cache bus (`POST /api/clear-cache`). */
export const AI_CACHE_SCOPE = 'ai';

/**
 * Let the cache bus clear this LLM's prompt and provider-choice caches (a managed LLM has them; a plain or
 * test double does not, and is left alone).
 */
export function registerLlmCache(bus: { register(scope: string, clear: () => void): void }, llm: LanguageModel): void {
  const managed = llm as Partial<ManagedLanguageModel>;
  if (typeof managed.clearCache === 'function') bus.register(AI_CACHE_SCOPE, () => managed.clearCache?.());
}
