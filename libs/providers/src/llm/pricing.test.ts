import { costFor, priceFor } from './pricing';

describe('LLM pricing', () => {
  it('matches dated model ids by the longest prefix', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18')).toEqual({ inputPerMillion: 0.15, outputPerMillion: 0.6 });
    expect(priceFor('gpt-4o-2024-08-06')).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 });
    expect(priceFor('claude-3-5-haiku-20241022')).toEqual({ inputPerMillion: 0.8, outputPerMillion: 4 });
    expect(priceFor('gpt-4oxyz')).toBeUndefined();
  });

  it('prices per million tokens and flags unknown models', () => {
    expect(costFor('gpt-4o', { inputTokens: 1_000_000, outputTokens: 500_000 })).toEqual({ costUsd: 7.5, priced: true });
    expect(costFor('llama3.1:8b', { inputTokens: 1000, outputTokens: 1000 })).toEqual({ costUsd: 0, priced: false });
  });
});
