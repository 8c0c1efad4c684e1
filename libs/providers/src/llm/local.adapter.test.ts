import { z } from 'zod';
import { ProviderError } from '../provider-error';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createLanguageModel } from './index';

const story =
  'I was born in Leeds in 1932. My father worked at the mill on Kirkstall Road. When the war started we moved to Harrogate to live with my aunt Mabel. ' +
  'She had a little house near the station and baked bread every morning. In 1945 my brother Tom came home from Burma and he was a different man. ' +
  'We went to Scarborough that summer and Tom hardly spoke the whole week, but he smiled when we bought ice cream on the pier.';

describe('local language model', () => {
  const usage = createMemoryUsageRecorder();
  const llm = createLanguageModel({ provider: 'local' }, { usage });

  beforeEach(() => usage.entries.splice(0));

  it('labels its answers local-<task>, costs nothing, counts words as tokens and records usage', async () => {
    const result = await llm.complete(
      { task: 'clean-transcript', input: { transcript: 'um so we we went to Leeds' }, messages: [] },
      { feature: 'transcription', userId: 'u1' },
    );
    expect(result).toMatchObject({ provider: 'local', model: 'local-clean-transcript', costUsd: 0, text: 'So we went to Leeds.' });
    expect(result.usage.outputTokens).toBe(5);
    expect(usage.entries).toEqual([expect.objectContaining({ provider: 'local', model: 'local-clean-transcript', operation: 'llm', costUsd: 0, success: true, userId: 'u1', feature: 'transcription' })]);
  });

  it('completeJson validates the generator object against the schema', async () => {
    const result = await llm.completeJson({ task: 'readiness-assessment', input: { text: story }, messages: [] }, z.object({ ready: z.boolean(), reasons: z.array(z.string()) }), { feature: 'story-conversion' });
    expect(result.data.ready).toBe(true);
    expect(JSON.parse(result.text).ready).toBe(true);
  });

  it('completeJson fails rather than returning data of another shape', async () => {
    const err = await llm.completeJson({ task: 'title-summary', input: { text: story }, messages: [] }, z.object({ score: z.number() })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('failed');
  });

  it('takes the text from the last user message when the input field is absent', async () => {
    const result = await llm.completeJson({ task: 'title-summary', messages: [{ role: 'user', content: 'We moved to Leeds.' }] }, z.object({ title: z.string(), summary: z.string() }));
    expect(result.data).toEqual({ title: 'We moved to Leeds', summary: 'We moved to Leeds.' });
  });

  it('asks an interview question', async () => {
    const result = await llm.complete({ task: 'interview-question', input: { lastAnswer: 'My grandmother lived with us in Leeds.' }, messages: [] });
    expect(result.text).toMatch(/\?$/);
    expect(result.text).toMatch(/grandmother|Leeds/);
  });

  it('refuses a task it has no generator for as unavailable, and records the failure', async () => {
    const err = await llm.complete({ task: 'write-a-novel', messages: [{ role: 'user', content: 'go' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'local', message: 'no offline generator for task write-a-novel' });
    expect(usage.entries).toEqual([expect.objectContaining({ success: false, errorCode: 'unavailable', model: 'local-write-a-novel' })]);
  });

  it('rejects a task without its input', async () => {
    const err = await llm.complete({ task: 'clean-transcript', messages: [] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'rejected_input' });
  });
});
