// LLM through the `openai` SDK against any OpenAI-compatible server (OpenAI, Ollama, vLLM): the base URL
// is configurable, the SDK's own retries are off so our retry policy applies, JSON uses json_object mode.
import type * as OpenAiSdk from 'openai';
import { lazyModule } from '../shared/lazy-module';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ProviderError } from '../provider-error';
import type { RetryPolicy } from '../shared/resilience';
import type { UsageRecorder } from '../shared/usage';
import { createChatModel, DEFAULT_LLM_TIMEOUT_MS, translateSdkError } from './chat-model';
import type { LanguageModel } from './llm.port';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiLlmOptions {
  /** Optional: local OpenAI-compatible servers (Ollama) need none. */
  apiKey?: string;
  baseUrl?: string;
  model: string;
  timeoutMs?: number;
  usage: UsageRecorder;
  retry?: RetryPolicy;
}

const loadSdk = lazyModule(() => require('openai') as typeof OpenAiSdk);

export function createOpenAiLanguageModel(options: OpenAiLlmOptions): LanguageModel {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  // apiKey and baseURL are always passed so the SDK never falls back to reading process.env.
  const { default: OpenAI, APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } = loadSdk();
  const client = new OpenAI({
    apiKey: options.apiKey || 'not-configured',
    baseURL: options.baseUrl || OPENAI_DEFAULT_BASE_URL,
    timeout: timeoutMs,
    maxRetries: 0,
  });
  const sdk = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

  return createChatModel(
    {
      provider: 'openai',
      model: options.model,
      async send(turn, signal) {
        const messages: ChatCompletionMessageParam[] = [
          ...(turn.system ? [{ role: 'system' as const, content: turn.system }] : []),
          ...turn.messages.map((m) => ({ role: m.role, content: m.content })),
        ];
        const completion = await client.chat.completions.create(
          {
            model: options.model,
            messages,
            ...(turn.maxTokens !== undefined ? { max_tokens: turn.maxTokens } : {}),
            ...(turn.temperature !== undefined ? { temperature: turn.temperature } : {}),
            ...(turn.json ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { signal },
        );
        const choice = completion.choices?.[0];
        if (!choice) throw new ProviderError('failed', 'openai', 'openai returned no answer');
        return {
          text: choice.message?.content ?? '',
          model: completion.model || options.model,
          usage: { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 },
        };
      },
      translate: (err) => translateSdkError('openai', err, sdk),
    },
    { usage: options.usage, timeoutMs, retry: options.retry },
  );
}
