// GET /api/debug-ai and /api/debug-usage (spec 001 admin routes "debugging"): what the AI layer is
// configured to do right now, and what it did, read from ai_usage_logs (spec 000 AI cost tracking).
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { aiPromptTemplates, aiPromptTemplateVersions, aiProviderConfigs, aiUsageLogs, type Database } from '@story/db';
import { MANAGED_PROMPT_KEYS, type ManagedLanguageModel } from '@story/providers';
import { rowView } from '../admin/admin-views';

const u = aiUsageLogs;
const cost = sql<number>`coalesce(sum(${u.sttCostUsd} + ${u.llmCostUsd} + ${u.ttsCostUsd}), 0)::float8`;
const calls = sql<number>`count(*)::int`;
const failures = sql<number>`(count(*) filter (where not ${u.success}))::int`;

export function createAiDebugService({ db, llm }: { db: Database; llm: ManagedLanguageModel }) {
  return {
    async debugAi() {
      const since = new Date(Date.now() - 86_400_000);
      const configs = await db.select().from(aiProviderConfigs).orderBy(asc(aiProviderConfigs.capability), asc(aiProviderConfigs.priority));
      const recentFeatures = await db.selectDistinct({ feature: u.feature }).from(u).where(and(eq(u.operation, 'llm'), gte(u.createdAt, new Date(Date.now() - 30 * 86_400_000))));
      const features = [...new Set([...recentFeatures.map((f) => f.feature), ...configs.filter((c) => c.capability === 'llm' && c.feature).map((c) => c.feature!)])].sort();
      const routing = await Promise.all(
        features.map(async (feature) => {
          const model = await llm.modelFor(feature);
          return { feature, provider: model.provider, model: model.model };
        }),
      );
      const active = await db
        .select({ key: aiPromptTemplates.key, version: aiPromptTemplates.currentVersion, is_active: aiPromptTemplates.isActive, updated_at: aiPromptTemplates.updatedAt, length: sql<number>`length(${aiPromptTemplateVersions.content})::int` })
        .from(aiPromptTemplates)
        .leftJoin(aiPromptTemplateVersions, and(eq(aiPromptTemplateVersions.templateId, aiPromptTemplates.id), eq(aiPromptTemplateVersions.version, aiPromptTemplates.currentVersion)));
      const prompts = Object.keys(MANAGED_PROMPT_KEYS).map((key) => {
        const row = active.find((a) => a.key === key && a.is_active);
        return { key, source: row ? 'template' : 'builtin', version: row?.version ?? null, characters: row?.length ?? null };
      });
      const health = await db
        .select({ provider: u.provider, operation: u.operation, calls, failures, avg_latency_ms: sql<number>`coalesce(round(avg(${u.latencyMs})), 0)::int` })
        .from(u)
        .where(gte(u.createdAt, since))
        .groupBy(u.provider, u.operation)
        .orderBy(u.provider);
      const errors = await db
        .select({ created_at: u.createdAt, feature: u.feature, provider: u.provider, model: u.model, operation: u.operation, error_code: u.errorCode, latency_ms: u.latencyMs })
        .from(u)
        .where(eq(u.success, false))
        .orderBy(desc(u.createdAt))
        .limit(20);
      return {
        llm: { provider: llm.provider, model: llm.model },
        feature_routing: routing,
        provider_configs: configs.map(rowView),
        prompts,
        last_24h: health,
        recent_errors: errors.map(rowView),
      };
    },

    async debugUsage(days: number) {
      const where = gte(u.createdAt, new Date(Date.now() - days * 86_400_000));
      const [totals] = await db
        .select({
          calls, failures, cost_usd: cost,
          input_tokens: sql<number>`coalesce(sum(${u.inputTokens}), 0)::int`,
          output_tokens: sql<number>`coalesce(sum(${u.outputTokens}), 0)::int`,
          audio_seconds: sql<number>`coalesce(sum(${u.audioSeconds}), 0)::float8`,
          characters: sql<number>`coalesce(sum(${u.characters}), 0)::int`,
        })
        .from(u)
        .where(where);
      const byFeature = await db.select({ feature: u.feature, calls, failures, cost_usd: cost }).from(u).where(where).groupBy(u.feature).orderBy(desc(cost));
      const byProvider = await db.select({ provider: u.provider, model: u.model, operation: u.operation, calls, failures, cost_usd: cost }).from(u).where(where).groupBy(u.provider, u.model, u.operation).orderBy(desc(cost));
      const day = sql<string>`to_char(date_trunc('day', ${u.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
      const daily = await db.select({ date: day, calls, cost_usd: cost }).from(u).where(where).groupBy(day).orderBy(day);
      const topUsers = await db.select({ user_id: u.userId, calls, cost_usd: cost }).from(u).where(and(where, sql`${u.userId} is not null`)).groupBy(u.userId).orderBy(desc(cost)).limit(10);
      return { period_days: days, totals: totals!, by_feature: byFeature, by_provider: byProvider, daily, top_users: topUsers };
    },
  };
}

export type AiDebugService = ReturnType<typeof createAiDebugService>;
