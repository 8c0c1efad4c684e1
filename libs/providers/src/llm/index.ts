// The LLM capability: createLanguageModel picks the adapter from config (CONVENTIONS 8); `local` is the
// embedded default that needs no key and no network.
import type { RetryPolicy } from '../shared/resilience';
import type { UsageRecorder } from '../shared/usage';
import { createAnthropicLanguageModel } from './anthropic.adapter';
import { createLocalLanguageModel } from './local.adapter';
import type { LanguageModel } from './llm.port';
import { createOpenAiLanguageModel } from './openai.adapter';

export type LanguageModelConfig =
  | { provider: 'local' }
  | { provider: 'openai'; apiKey?: string; baseUrl?: string; model: string }
  | { provider: 'anthropic'; apiKey: string; baseUrl?: string; model: string };

export interface LanguageModelDeps {
  usage: UsageRecorder;
  timeoutMs?: number;
  /** Override the retry policy (tests use short delays). */
  retry?: RetryPolicy;
}

export function createLanguageModel(config: LanguageModelConfig, deps: LanguageModelDeps): LanguageModel {
  switch (config.provider) {
    case 'local':
      return createLocalLanguageModel({ usage: deps.usage });
    case 'openai':
      return createOpenAiLanguageModel({ ...config, usage: deps.usage, timeoutMs: deps.timeoutMs, retry: deps.retry });
    case 'anthropic':
      return createAnthropicLanguageModel({ ...config, usage: deps.usage, timeoutMs: deps.timeoutMs, retry: deps.retry });
    default: {
      const unknown: never = config;
      throw new Error(`unknown LLM provider ${(unknown as { provider: string }).provider}`);
    }
  }
}

export * from './llm.port';
export * from './managed';
export { LLM_PRICES, costFor, priceFor, type ModelPrice } from './pricing';
export { LOCAL_GENERATORS, createLocalLanguageModel } from './local.adapter';
export { createOpenAiLanguageModel, type OpenAiLlmOptions } from './openai.adapter';
export { createAnthropicLanguageModel, type AnthropicLlmOptions } from './anthropic.adapter';
export { cleanTranscript } from './local/clean-transcript';
export { titleSummary, type TitleSummary } from './local/title-summary';
export { interviewQuestion } from './local/interview-question';
export { assessReadiness, type ReadinessAssessment } from './local/readiness-assessment';
