// LLM through `@anthropic-ai/sdk` (Messages API): the base URL is configurable, the SDK's own retries are
// off so our retry policy applies; JSON is asked for in the system prompt and the first object is parsed.
import type * as AnthropicSdk from '@anthropic-ai/sdk';
import { lazyModule } from '../shared/lazy-module';
import type { RetryPolicy } from '../shared/resilience';
import type { UsageRecorder } from '../shared/usage';
import { createChatModel, DEFAULT_LLM_TIMEOUT_MS, translateSdkError } from './chat-model';
import type { LanguageModel } from './llm.port';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** The Messages API requires max_tokens; this is the default when the caller gives none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 2048;

export interface AnthropicLlmOptions {
  apiKey: string;
  baseUrl?: string;
  model: string;
  timeoutMs?: number;
  usage: UsageRecorder;
  retry?: RetryPolicy;
}

const loadSdk = lazyModule(() => require('@anthropic-ai/sdk') as typeof AnthropicSdk);

export function createAnthropicLanguageModel(options: AnthropicLlmOptions): LanguageModel {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const { default: Anthropic, APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } = loadSdk();
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl || ANTHROPIC_DEFAULT_BASE_URL,
    timeout: timeoutMs,
    maxRetries: 0,
  });
  const sdk = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

  return createChatModel(
    {
      provider: 'anthropic',
      model: options.model,
      async send(turn, signal) {
        const message = await client.messages.create(
          {
            model: options.model,
            max_tokens: turn.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
            ...(turn.system ? { system: turn.system } : {}),
            messages: turn.messages.map((m) => ({ role: m.role, content: m.content })),
            ...(turn.temperature !== undefined ? { temperature: turn.temperature } : {}),
          },
          { signal },
        );
        const text = message.content
          .map((block) => (block.type === 'text' ? block.text : ''))
          .join('');
        return {
          text,
          model: message.model || options.model,
          usage: { inputTokens: message.usage?.input_tokens ?? 0, outputTokens: message.usage?.output_tokens ?? 0 },
        };
      },
      translate: (err) => translateSdkError('anthropic', err, sdk),
    },
    { usage: options.usage, timeoutMs, retry: options.retry },
  );
}
