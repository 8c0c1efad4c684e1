// analyseContent with a configured model (a fake port): the model's suggestions and themes are added to
// the offline answer, and a failing model leaves the offline answer intact.
import type { LanguageModel } from '@story/providers';
import { analyseContent } from './content-analysis';

const chapters = [
  { id: '00000000-0000-4000-8000-000000000001', title: 'Childhood', content: '<p>Born in 1931 on the farm.</p>', wordCount: 6 },
  { id: '00000000-0000-4000-8000-000000000002', title: 'Work', content: '<p>The mill, 1950.</p>', wordCount: 3 },
];

function fakeModel(answer: () => unknown, provider: LanguageModel['provider'] = 'openai') {
  const calls: { task: string; content: string }[] = [];
  const llm: LanguageModel = {
    provider,
    model: 'fake-model',
    complete: async () => {
      throw new Error('not used');
    },
    completeJson: async (request, schema) => {
      calls.push({ task: request.task, content: request.messages[0]?.content ?? '' });
      const data = schema.parse(answer());
      return { data, text: JSON.stringify(data), model: 'fake-model', provider, usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 0, latencyMs: 1 };
    },
  };
  return { llm, calls };
}

it('adds a configured model’s suggestions and themes to the offline analysis', async () => {
  const { llm, calls } = fakeModel(() => ({ suggestions: ['Say more about the mill.'], themes: ['farm life', 'work'] }));
  const result = await analyseContent(chapters, { llm, userId: 'u' });
  expect(result.source).toBe('offline+fake-model');
  expect(result.themes).toEqual(['farm life', 'work']);
  expect(result.suggestions).toContain('Say more about the mill.');
  expect(result.gaps).toEqual([{ from: 1931, to: 1950, years: 19 }]);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.task).toBe('book-content-analysis');
  expect(calls[0]!.content).toContain('1. Childhood: Born in 1931 on the farm.');
});

it('keeps the offline answer when the model fails or answers the wrong shape, and never calls the local adapter', async () => {
  const logged: unknown[] = [];
  const broken = fakeModel(() => ({ nonsense: true }));
  const result = await analyseContent(chapters, { llm: broken.llm, userId: 'u', log: (err) => logged.push(err) });
  expect(result.source).toBe('offline');
  expect(result.themes).toEqual([]);
  expect(logged).toHaveLength(1);
  const local = fakeModel(() => ({ suggestions: [], themes: [] }), 'local');
  expect((await analyseContent(chapters, { llm: local.llm, userId: 'u' })).source).toBe('offline');
  expect(local.calls).toHaveLength(0);
});
