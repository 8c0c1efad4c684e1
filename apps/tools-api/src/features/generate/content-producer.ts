// Turns a tool's options into content: through the configured LLM (JSON validated against the tool's content
// schema) or, with the offline `local` provider or when the provider fails, through the tool's curated
// offline generator, labelled `local-<tool>` so nobody mistakes it for a model's output.
//
// Labels say only what is true (spec 002 Content record, its ai_* fields): `aiGenerated` only when a model
// wrote the content; token counts only as the model reported them (null when no model ran: a word count is
// not a token count); confidence null because nothing measures it (a constant would pretend to).
import type { ToolRoute } from '@story/db';
import { providerForFeature, type LanguageModel } from '@story/providers';
import { createRng, type Rng, type ToolContent, type ToolDefinition } from '../../tools';

/** Who made the content: an LLM provider's name, `local` (the offline generator) or `none` (no generator at all, e.g. a PDF's own pages). */
export type ContentProvider = string;

export interface ProducedContent {
  content: ToolContent;
  /** The prompt a model was (or, offline, would have been) asked; null when nothing was generated. */
  prompt: string | null;
  provider: ContentProvider;
  /** The model or offline generator that made it; null when none did. */
  model: string | null;
  /** True only when a language model wrote the content. */
  aiGenerated: boolean;
  /** Tokens as the model reported them; null when no model ran. */
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number;
  generationTimeMs: number;
  /** A measured confidence in [0, 1]; null while nothing measures one. */
  confidence: number | null;
  /** The provider failed and the offline generator answered instead. */
  fallback?: { provider: string; model: string; errorCode: string; generationTimeMs: number };
}

/** Total tokens of a model answer, null when no model ran. */
export const tokensOf = (p: Pick<ProducedContent, 'inputTokens' | 'outputTokens'>): number | null =>
  p.inputTokens === null && p.outputTokens === null ? null : (p.inputTokens ?? 0) + (p.outputTokens ?? 0);

export function produceOffline(def: ToolDefinition, options: Record<string, unknown>, rng: Rng = createRng()): ProducedContent {
  const started = performance.now();
  const prompt = def.llm.user(options);
  const content = def.generateOffline(options, rng);
  return {
    content,
    prompt,
    provider: 'local',
    model: `local-${def.route}`,
    aiGenerated: false,
    inputTokens: null,
    outputTokens: null,
    costUsd: 0,
    generationTimeMs: Math.max(1, Math.round(performance.now() - started)),
    confidence: null,
  };
}

/** Content taken as it is from the visitor's file (a flipbook's PDF pages): no model, no generator. */
export function producedFromFile(content: ToolContent, generationTimeMs: number): ProducedContent {
  return { content, prompt: null, provider: 'none', model: null, aiGenerated: false, inputTokens: null, outputTokens: null, costUsd: 0, generationTimeMs: Math.max(1, Math.round(generationTimeMs)), confidence: null };
}

export async function produceContent(
  deps: { llm: LanguageModel; rng?: Rng },
  def: ToolDefinition,
  options: Record<string, unknown>,
  ctx: { userId: string | null; tool: ToolRoute },
): Promise<ProducedContent> {
  if ((await providerForFeature(deps.llm, `tools:${ctx.tool}`)) === 'local') return produceOffline(def, options, deps.rng);
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
      aiGenerated: true,
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      costUsd: answer.costUsd,
      generationTimeMs: Math.max(1, Math.round(performance.now() - started)),
      confidence: null,
    };
  } catch (err) {
    const failedMs = Math.round(performance.now() - started);
    const errorCode = (err as { kind?: string }).kind ?? 'failed';
    // The visitor still gets content: the offline generator answers and the result says so.
    const offline = produceOffline(def, options, deps.rng);
    return { ...offline, fallback: { provider: deps.llm.provider, model: deps.llm.model, errorCode, generationTimeMs: failedMs } };
  }
}
