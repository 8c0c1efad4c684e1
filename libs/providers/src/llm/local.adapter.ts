// The embedded default LLM: deterministic offline generators, one per task, labelled `local-<task>` in
// ai_model so nobody mistakes their output for a model's. A task without a generator is 'unavailable'
// rather than answered with filler text.
import { ProviderError } from '../provider-error';
import type { UsageRecorder } from '../shared/usage';
import { checkJsonAnswer, checkValue } from './json-answer';
import type { CallContext, LanguageModel, LlmRequest, LlmResult } from './llm.port';
import { cleanTranscript } from './local/clean-transcript';
import { interviewQuestion } from './local/interview-question';
import { assessReadiness } from './local/readiness-assessment';
import { words } from './local/text';
import { titleSummary } from './local/title-summary';

type Generator = (input: Record<string, unknown>, request: LlmRequest) => string | object;

/** The input text of a task: the named input field, else the last user message. */
function textInput(field: string, task: string) {
  return (input: Record<string, unknown>, request: LlmRequest): string => {
    const value = input[field];
    if (typeof value === 'string') return value;
    const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
    if (lastUser) return lastUser.content;
    throw new ProviderError('rejected_input', 'local', `${task} needs input.${field}`);
  };
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const LOCAL_GENERATORS: Record<string, Generator> = {
  'clean-transcript': (input, request) => cleanTranscript(textInput('transcript', 'clean-transcript')(input, request)),
  'title-summary': (input, request) => titleSummary(textInput('text', 'title-summary')(input, request)),
  'interview-question': (input) => interviewQuestion({ lastAnswer: optionalString(input.lastAnswer), topic: optionalString(input.topic) }),
  'readiness-assessment': (input, request) => assessReadiness(textInput('text', 'readiness-assessment')(input, request)),
};

const pseudoTokens = (text: string) => words(text).length;

export function createLocalLanguageModel(deps: { usage: UsageRecorder; generators?: Record<string, Generator> }): LanguageModel {
  const generators = deps.generators ?? LOCAL_GENERATORS;

  async function run(request: LlmRequest, ctx: CallContext | undefined): Promise<{ output: string | object; result: LlmResult }> {
    const started = performance.now();
    const model = `local-${request.task}`;
    const inputText = [request.system ?? '', ...request.messages.map((m) => m.content), request.input ? JSON.stringify(request.input) : ''].join(' ');
    const base = { userId: ctx?.userId ?? null, feature: ctx?.feature ?? 'unspecified', provider: 'local', model, operation: 'llm' as const, costUsd: 0 };
    try {
      const generator = Object.prototype.hasOwnProperty.call(generators, request.task) ? generators[request.task] : undefined;
      if (!generator) throw new ProviderError('unavailable', 'local', `no offline generator for task ${request.task}`);
      const output = generator(request.input ?? {}, request);
      const text = typeof output === 'string' ? output : JSON.stringify(output);
      const usage = { inputTokens: pseudoTokens(inputText), outputTokens: pseudoTokens(text) };
      const latencyMs = performance.now() - started;
      await deps.usage.record({ ...base, ...usage, latencyMs, success: true, metadata: { task: request.task, tokens: 'words' } });
      return { output, result: { text, model, provider: 'local', usage, costUsd: 0, latencyMs } };
    } catch (err) {
      const error = err instanceof ProviderError ? err : new ProviderError('failed', 'local', `the offline ${request.task} generator failed`, { cause: err });
      await deps.usage.record({ ...base, latencyMs: performance.now() - started, success: false, errorCode: error.kind, metadata: { task: request.task } });
      throw error;
    }
  }

  return {
    provider: 'local',
    model: 'local',
    async complete(request, ctx) {
      return (await run(request, ctx)).result;
    },
    async completeJson(request, schema, ctx) {
      const { output, result } = await run(request, ctx);
      const check = typeof output === 'string' ? checkJsonAnswer(output, schema) : checkValue(output, schema);
      if (!check.ok) throw new ProviderError('failed', 'local', `the offline ${request.task} generator does not produce the requested structure`);
      return { ...result, data: check.data };
    },
  };
}
