// The language-model seam: services ask for free text or validated JSON and never see an SDK; the
// provider is chosen by config (openai, anthropic, or the deterministic offline `local` generators).
import type { z } from 'zod';

export type LlmProvider = 'openai' | 'anthropic' | 'local';

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  /** What the caller wants (clean-transcript, title-summary, ...), so the local adapter can do honest work without a model. */
  task: string;
  /** Structured input of the task. */
  input?: Record<string, unknown>;
  system?: string;
  /** An admin-managed prompt (ai_prompt_templates key): its active version replaces `system`, which stays the built-in fallback. */
  promptKey?: string;
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmResult {
  text: string;
  model: string;
  provider: LlmProvider;
  usage: LlmUsage;
  costUsd: number;
  latencyMs: number;
}

export interface CallContext {
  userId?: string | null;
  /** The product feature that asked (story-conversion, ai:grammar, tools:<tool>, ...), for cost tracking. */
  feature: string;
  signal?: AbortSignal;
}

export interface LanguageModel {
  readonly provider: LlmProvider;
  readonly model: string;
  /** Free text answer. */
  complete(request: LlmRequest, context?: CallContext): Promise<LlmResult>;
  /** The provider that would serve a call for `feature` now (admins may route features elsewhere; llm/managed). Absent: always `provider`. */
  providerFor?(feature: string): Promise<LlmProvider>;
  /** JSON answer validated against `schema`; one repair retry (the invalid answer and the validation errors are sent back), then ProviderError('failed') — never half-parsed data. */
  completeJson<T>(request: LlmRequest, schema: z.ZodType<T>, context?: CallContext): Promise<LlmResult & { data: T }>;
}

/**
 * Which provider serves `feature`: callers that take an offline path for `local` ask this rather than
 * `llm.provider`, because an admin may send one feature to another provider than the default.
 */
export async function providerForFeature(llm: LanguageModel, feature: string): Promise<LlmProvider> {
  return llm.providerFor ? llm.providerFor(feature) : llm.provider;
}
