// LLM prices in USD per 1M tokens (spec 000 "AI cost tracking": llm cost per token). Model ids carry date
// suffixes (gpt-4o-2024-08-06, claude-3-5-haiku-20241022), so the longest matching prefix wins; a model
// not in the table costs 0 and is flagged `priced: false` so the gap shows in ai_usage_logs.metadata.

export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export const LLM_PRICES: Record<string, ModelPrice> = {
  // OpenAI
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-4-turbo': { inputPerMillion: 10, outputPerMillion: 30 },
  'gpt-3.5-turbo': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
  'o3-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  // Anthropic
  'claude-3-haiku': { inputPerMillion: 0.25, outputPerMillion: 1.25 },
  'claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4 },
  'claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5 },
  'claude-3-5-sonnet': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-3-7-sonnet': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-opus-4': { inputPerMillion: 15, outputPerMillion: 75 },
};

export function priceFor(model: string, table: Record<string, ModelPrice> = LLM_PRICES): ModelPrice | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if ((model === key || model.startsWith(`${key}-`)) && (!best || key.length > best.length)) best = key;
  }
  return best ? table[best] : undefined;
}

/** Cost of one call; `priced` is false when the model is not in the table (cost then counts as 0). */
export function costFor(model: string, usage: { inputTokens: number; outputTokens: number }): { costUsd: number; priced: boolean } {
  const price = priceFor(model);
  if (!price) return { costUsd: 0, priced: false };
  const costUsd = (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1_000_000;
  return { costUsd: Math.round(costUsd * 1e8) / 1e8, priced: true };
}
