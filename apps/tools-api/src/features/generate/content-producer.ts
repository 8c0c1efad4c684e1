// Turns a tool's options into content: through the configured LLM (JSON validated against the tool's content
// schema) or, with the offline `local` provider or when the provider fails, through the tool's curated
// offline generator, labelled `local-<tool>` so nobody mistakes it for a model's output.
import type { ToolRoute } from '@story/db';
import type { LanguageModel } from '@story/providers';
import { createRng, type Rng, type ToolContent, type ToolDefinition } from '../../tools';

export interface ProducedContent {
  content: ToolContent;
  prompt: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  generationTimeMs: number;
  confidence: number;
  /** The provider failed and the offline generator answered instead. */
  fallback?: { provider: string; model: string; errorCode: string; generationTimeMs: number };
}

const pseudoTokens = (text: string) => (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/** Offline content is curated, not model-made: a lower confidence than a model answer. */
const OFFLINE_CONFIDENCE = 0.7;
const LLM_CONFIDENCE = 0.85;

export function produceOffline(def: ToolDefinition, options: Record<string, unknown>, rng: Rng = createRng()): ProducedContent {
  const started = performance.now();
  const prompt = def.llm.user(options);
  const content = def.generateOffline(options, rng);
  return {
    content,
    prompt,
    provider: 'local',
    model: `local-${def.route}`,
    inputTokens: pseudoTokens(def.llm.system) + pseudoTokens(prompt),
    outputTokens: pseudoTokens(JSON.stringify(content)),
    costUsd: 0,
    generationTimeMs: Math.max(1, Math.round(performance.now() - started)),
    confidence: OFFLINE_CONFIDENCE,
  };
}

export async function produceContent(
  deps: { llm: LanguageModel; rng?: Rng },
  def: ToolDefinition,
  options: Record<string, unknown>,
  ctx: { userId: string | null; tool: ToolRoute },
): Promise<ProducedContent> {
  if (deps.llm.provider === 'local') return produceOffline(def, options, deps.rng);
  const started = performance.now();
  const prompt = def.llm.user(options);
  try {
    const answer = await deps.llm.completeJson(
      { task: `tools:${def.route}`, system: def.llm.system, messages: [{ role: 'user', content: prompt }], input: options, maxTokens: 2000, temperature: 0.9 },
      def.llm.contentSchema,
      { feature: `tools:${ctx.tool}`, userId: ctx.userId },
    );
    return {
      content: answer.data,
      prompt,
      provider: answer.provider,
      model: answer.model,
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      costUsd: answer.costUsd,
      generationTimeMs: Math.max(1, Math.round(performance.now() - started)),
      confidence: LLM_CONFIDENCE,
    };
  } catch (err) {
    const failedMs = Math.round(performance.now() - started);
    const errorCode = (err as { kind?: string }).kind ?? 'failed';
    // The visitor still gets content: the offline generator answers and the result says so.
    const offline = produceOffline(def, options, deps.rng);
    return { ...offline, fallback: { provider: deps.llm.provider, model: deps.llm.model, errorCode, generationTimeMs: failedMs } };
  }
}
