// Which provider and model serve a product feature, as the admin set it in ai_provider_configs (spec 001
// "AI provider configuration"): the active row for exactly this feature wins, else the capability-wide row
// (feature null), lowest priority first; no row means the environment's default provider.
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { aiProviderConfigs, type AiCapability, type Database } from '@story/db';
import { createTtlCache } from './ttl-cache';

export interface ProviderChoice {
  provider: string;
  model: string | null;
  settings: Record<string, unknown>;
  /** The feature of the row that decided (null: the capability-wide row). */
  feature: string | null;
}

export interface FeatureRouter {
  choose(capability: AiCapability, feature: string): Promise<ProviderChoice | null>;
  clear(): void;
}

export function createFeatureRouter(db: Database, options: { ttlMs?: number; now?: () => number } = {}): FeatureRouter {
  const cache = createTtlCache<ProviderChoice | null>(options.ttlMs ?? 30_000, options.now);
  const load = async (capability: AiCapability, feature: string) => {
    const [row] = await db
      .select({ provider: aiProviderConfigs.provider, model: aiProviderConfigs.model, settings: aiProviderConfigs.settings, feature: aiProviderConfigs.feature })
      .from(aiProviderConfigs)
      .where(and(eq(aiProviderConfigs.capability, capability), eq(aiProviderConfigs.isActive, true), or(eq(aiProviderConfigs.feature, feature), isNull(aiProviderConfigs.feature))))
      // The feature's own row before the capability-wide one, then the admin's priority order.
      .orderBy(sql`${aiProviderConfigs.feature} is null`, asc(aiProviderConfigs.priority), asc(aiProviderConfigs.createdAt))
      .limit(1);
    return row ?? null;
  };
  return {
    async choose(capability, feature) {
      try {
        return await cache.get(`${capability}\u0000${feature}`, () => load(capability, feature));
      } catch {
        return null;
      }
    },
    clear: () => cache.clear(),
  };
}
