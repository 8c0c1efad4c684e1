// The language model every service uses, with the admin's run-time settings applied to each call:
// a request that names a `promptKey` gets the active prompt template as its system prompt, and the
// call goes to the provider and model configured for its feature (ai_provider_configs). Without rows
// (or when the configured provider has no credentials here) the call goes to the base model unchanged.
import type { z } from 'zod';
import type { CallContext, LanguageModel, LlmProvider, LlmRequest } from '../llm.port';
import type { FeatureRouter } from './feature-router';
import type { PromptStore } from './prompt-store';

export interface ManagedLanguageModelOptions {
  base: LanguageModel;
  prompts: PromptStore;
  router: FeatureRouter;
  /** An adapter for provider + model, or null when this deployment cannot serve that provider. */
  build: (provider: string, model: string | null) => LanguageModel | null;
}

export interface ManagedLanguageModel extends LanguageModel {
  /** The model a call for `feature` would use now (provider test, debug pages). */
  modelFor(feature: string): Promise<LanguageModel>;
  providerFor(feature: string): Promise<LlmProvider>;
  /** Forget cached prompts and provider choices. */
  clearCache(): void;
}

export function createManagedLanguageModel({ base, prompts, router, build }: ManagedLanguageModelOptions): ManagedLanguageModel {
  const adapters = new Map<string, LanguageModel | null>();

  async function modelFor(feature: string): Promise<LanguageModel> {
    const choice = await router.choose('llm', feature);
    if (!choice) return base;
    if (choice.provider === base.provider && (choice.model ?? base.model) === base.model) return base;
    const key = `${choice.provider}\u0000${choice.model ?? ''}`;
    if (!adapters.has(key)) adapters.set(key, build(choice.provider, choice.model));
    return adapters.get(key) ?? base;
  }

  async function prepare(request: LlmRequest): Promise<LlmRequest> {
    if (!request.promptKey) return request;
    const prompt = await prompts.resolve(request.promptKey, request.system ?? '');
    return { ...request, system: prompt.text || undefined };
  }

  return {
    get provider() {
      return base.provider;
    },
    get model() {
      return base.model;
    },
    modelFor,
    providerFor: async (feature: string) => (await modelFor(feature)).provider,
    clearCache() {
      prompts.clear();
      router.clear();
    },
    async complete(request: LlmRequest, context?: CallContext) {
      const [model, prepared] = await Promise.all([modelFor(context?.feature ?? ''), prepare(request)]);
      return model.complete(prepared, context);
    },
    async completeJson<T>(request: LlmRequest, schema: z.ZodType<T>, context?: CallContext) {
      const [model, prepared] = await Promise.all([modelFor(context?.feature ?? ''), prepare(request)]);
      return model.completeJson(prepared, schema, context);
    },
  };
}
