// What the openai and anthropic adapters share: retries with our policy, a timeout per request, usage
// recorded for every request (success or failure, repair requests included), SDK errors translated into
// ProviderError in our own words, and the JSON contract (one repair request, then 'failed').
import { ProviderError, kindForStatus, type ProviderErrorKind } from '../provider-error';
import { DEFAULT_RETRY, withRetry, withTimeout, type RetryPolicy } from '../shared/resilience';
import type { UsageRecorder } from '../shared/usage';
import { checkJsonAnswer, jsonInstruction, repairMessage } from './json-answer';
import type { CallContext, LanguageModel, LlmMessage, LlmRequest, LlmResult, LlmUsage } from './llm.port';
import { costFor } from './pricing';

export interface ChatTurn {
  system?: string;
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Ask the server for a JSON object where it supports that natively. */
  json: boolean;
}

export interface ChatAnswer {
  text: string;
  /** The model that answered (servers may report a dated id). */
  model: string;
  usage: LlmUsage;
}

export interface ChatBackend {
  provider: 'openai' | 'anthropic';
  model: string;
  /** One request to the provider; may throw SDK errors, `translate` turns them into ProviderError. */
  send(turn: ChatTurn, signal: AbortSignal): Promise<ChatAnswer>;
  translate(err: unknown): ProviderError;
}

export interface ChatModelDeps {
  usage: UsageRecorder;
  timeoutMs: number;
  retry?: RetryPolicy;
}

export const DEFAULT_LLM_TIMEOUT_MS = 60_000;

/** The SDK error classes an adapter hands to translateSdkError (both SDKs share this shape). */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status?: number };
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

const WORDS: Record<ProviderErrorKind, (p: string) => string> = {
  auth: (p) => `${p} refused the configured credentials`,
  quota: (p) => `${p} is rate limiting requests or the account is out of quota`,
  timeout: (p) => `${p} did not answer in time`,
  unavailable: (p) => `${p} is unavailable`,
  rejected_input: (p) => `${p} rejected the request`,
  not_found: (p) => `${p} does not know the requested model or resource`,
  failed: (p) => `the ${p} request failed`,
};

/** Translate an SDK error at the boundary: the kind comes from the status, the message is ours (no provider text). */
export function translateSdkError(provider: string, err: unknown, sdk: SdkErrorClasses): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof sdk.APIConnectionTimeoutError) return new ProviderError('timeout', provider, WORDS.timeout(provider), { cause: err });
  if (err instanceof sdk.APIUserAbortError) return new ProviderError('failed', provider, `the ${provider} request was cancelled`, { cause: err });
  if (err instanceof sdk.APIConnectionError) return new ProviderError('unavailable', provider, `could not reach ${provider}`, { cause: err });
  if (err instanceof sdk.APIError && typeof err.status === 'number') {
    const kind = kindForStatus(err.status);
    return new ProviderError(kind, provider, `${WORDS[kind](provider)} (HTTP ${err.status})`, { status: err.status, cause: err });
  }
  return new ProviderError('failed', provider, WORDS.failed(provider), { cause: err });
}

interface Exchange {
  answer: ChatAnswer;
  latencyMs: number;
  costUsd: number;
  priced: boolean;
}

export function createChatModel(backend: ChatBackend, deps: ChatModelDeps): LanguageModel {
  const { provider, model } = backend;
  const policy = deps.retry ?? DEFAULT_RETRY;

  const record = (ctx: CallContext | undefined, e: { model?: string; usage?: LlmUsage; costUsd?: number; latencyMs: number; success: boolean; errorCode?: string; metadata: Record<string, unknown> }) =>
    deps.usage.record({
      userId: ctx?.userId ?? null,
      feature: ctx?.feature ?? 'unspecified',
      provider,
      model: e.model ?? model,
      operation: 'llm',
      inputTokens: e.usage?.inputTokens ?? 0,
      outputTokens: e.usage?.outputTokens ?? 0,
      costUsd: e.costUsd ?? 0,
      latencyMs: e.latencyMs,
      success: e.success,
      errorCode: e.errorCode,
      metadata: e.metadata,
    });

  /** One logical request: retried on retryable failures, each failed attempt recorded here. */
  async function exchange(turn: ChatTurn, ctx: CallContext | undefined, task: string): Promise<Exchange> {
    return withRetry(async (attempt) => {
      const started = performance.now();
      try {
        const answer = await withTimeout(provider, deps.timeoutMs, (timeoutSignal) =>
          backend.send(turn, ctx?.signal ? AbortSignal.any([timeoutSignal, ctx.signal]) : timeoutSignal),
        );
        const { costUsd, priced } = costFor(answer.model || model, answer.usage);
        return { answer, latencyMs: performance.now() - started, costUsd, priced };
      } catch (err) {
        const error = err instanceof ProviderError ? err : backend.translate(err);
        await record(ctx, {
          latencyMs: performance.now() - started,
          success: false,
          errorCode: error.kind,
          metadata: { task, attempt, status: error.status ?? null },
        });
        throw error;
      }
    }, policy);
  }

  const recordAnswer = (ctx: CallContext | undefined, x: Exchange, task: string, extra: Record<string, unknown> = {}, failure?: string) =>
    record(ctx, {
      model: x.answer.model || model,
      usage: x.answer.usage,
      costUsd: x.costUsd,
      latencyMs: x.latencyMs,
      success: !failure,
      errorCode: failure,
      metadata: { task, priced: x.priced, ...extra },
    });

  const result = (xs: Exchange[]): LlmResult => {
    const last = xs[xs.length - 1];
    return {
      text: last.answer.text,
      model: last.answer.model || model,
      provider,
      usage: {
        inputTokens: xs.reduce((n, x) => n + x.answer.usage.inputTokens, 0),
        outputTokens: xs.reduce((n, x) => n + x.answer.usage.outputTokens, 0),
      },
      costUsd: xs.reduce((n, x) => n + x.costUsd, 0),
      latencyMs: xs.reduce((n, x) => n + x.latencyMs, 0),
    };
  };

  const turnOf = (request: LlmRequest, json: boolean, system = request.system): ChatTurn => ({
    system,
    messages: request.messages,
    maxTokens: request.maxTokens,
    temperature: request.temperature,
    json,
  });

  return {
    provider,
    model,
    async complete(request, ctx) {
      const x = await exchange(turnOf(request, false), ctx, request.task);
      await recordAnswer(ctx, x, request.task);
      return result([x]);
    },
    async completeJson(request, schema, ctx) {
      const system = [request.system, jsonInstruction(schema)].filter(Boolean).join('\n\n');
      const first = await exchange(turnOf(request, true, system), ctx, request.task);
      const firstCheck = checkJsonAnswer(first.answer.text, schema);
      if (firstCheck.ok) {
        await recordAnswer(ctx, first, request.task, { json: 'valid' });
        return { ...result([first]), data: firstCheck.data };
      }
      await recordAnswer(ctx, first, request.task, { json: 'invalid', problems: firstCheck.problems.length }, 'invalid_output');

      const repair: ChatTurn = {
        ...turnOf(request, true, system),
        messages: [
          ...request.messages,
          { role: 'assistant', content: first.answer.text.trim() || '(empty answer)' },
          { role: 'user', content: repairMessage(firstCheck.problems) },
        ],
      };
      const second = await exchange(repair, ctx, request.task);
      const secondCheck = checkJsonAnswer(second.answer.text, schema);
      if (secondCheck.ok) {
        await recordAnswer(ctx, second, request.task, { json: 'valid', repaired: true });
        return { ...result([first, second]), data: secondCheck.data };
      }
      await recordAnswer(ctx, second, request.task, { json: 'invalid', repaired: false, problems: secondCheck.problems.length }, 'invalid_output');
      throw new ProviderError('failed', provider, `${provider} did not return a valid JSON answer after one repair request`);
    },
  };
}
