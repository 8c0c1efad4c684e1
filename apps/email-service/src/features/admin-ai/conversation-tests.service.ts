// The admin conversation tester (spec 001 admin routes test-conversations, conversation-test-results,
// test-analytics, test-provider, debug-test-data): a scripted storyteller answers, the interviewer prompt
// under test (a template version, by default the active one) asks the next question through the provider
// that serves the real interviewer (`conversation:chat`), and every turn is checked and stored in
// ai_conversation_tests. Calls are costed under the feature admin:conversation-test, apart from users' calls.
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { aiConversationTests, aiPromptTemplates, aiPromptTemplateVersions, aiUsageLogs, type Database } from '@story/db';
import { notFound } from '@story/http';
import { ProviderError, type LlmMessage, type ManagedLanguageModel } from '@story/providers';
import { rowView } from '../admin/admin-views';
import { checkTurn } from './interviewer-checks';

export const INTERVIEWER_FEATURE = 'conversation:chat';
export const TEST_FEATURE = 'admin:conversation-test';

export interface RunInput {
  name?: string | null;
  prompt_key: string;
  version?: number;
  answers: string[];
  topic?: string | null;
}

const summary = (row: typeof aiConversationTests.$inferSelect) => {
  const { turns, script, ...rest } = rowView(row);
  return { ...rest, turn_count: (turns as unknown[]).length, script_length: (script as unknown[]).length, pass_rate: row.checksTotal ? row.checksPassed / row.checksTotal : 0 };
};

export function createConversationTestsService({ db, llm }: { db: Database; llm: ManagedLanguageModel }) {
  async function promptUnderTest(key: string, version?: number) {
    const [tpl] = await db.select().from(aiPromptTemplates).where(eq(aiPromptTemplates.key, key));
    if (!tpl) throw notFound(`Prompt template ${key}`, { details: { field: 'prompt_key' } });
    const wanted = version ?? tpl.currentVersion;
    const [v] = await db.select().from(aiPromptTemplateVersions).where(and(eq(aiPromptTemplateVersions.templateId, tpl.id), eq(aiPromptTemplateVersions.version, wanted)));
    if (!v) throw notFound(`Version ${wanted} of ${key}`, { details: { field: 'version' } });
    return { text: v.content, version: wanted };
  }

  return {
    async run(input: RunInput, actorId: string) {
      const prompt = await promptUnderTest(input.prompt_key, input.version);
      const model = await llm.modelFor(INTERVIEWER_FEATURE);
      const history: LlmMessage[] = [];
      const turns: Record<string, unknown>[] = [];
      let [passed, total, latency, tokensIn, tokensOut] = [0, 0, 0, 0, 0];
      let error: string | null = null;
      for (const [i, answer] of input.answers.entries()) {
        history.push({ role: 'user', content: answer });
        try {
          const result = await model.complete(
            { task: 'interview-question', input: { lastAnswer: answer, topic: input.topic ?? undefined }, system: prompt.text, messages: [...history], maxTokens: 160, temperature: 0.7 },
            { feature: TEST_FEATURE, userId: actorId },
          );
          const checks = checkTurn(result.text, answer, turns.map((t) => String(t['question'])));
          passed += checks.filter((c) => c.passed).length;
          total += checks.length;
          latency += Math.round(result.latencyMs);
          tokensIn += result.usage.inputTokens;
          tokensOut += result.usage.outputTokens;
          turns.push({ turn: i + 1, answer, question: result.text, latency_ms: Math.round(result.latencyMs), model: result.model, checks });
          history.push({ role: 'assistant', content: result.text });
        } catch (err) {
          // Our own words only: a ProviderError's message never carries the provider's raw text.
          error = err instanceof ProviderError ? `${err.kind}: ${err.message}` : 'The interviewer call failed';
          turns.push({ turn: i + 1, answer, error });
          break;
        }
      }
      const status = error ? 'error' : passed === total ? 'passed' : 'failed';
      const [row] = await db
        .insert(aiConversationTests)
        .values({
          name: input.name ?? null, promptKey: input.prompt_key, promptVersion: prompt.version, feature: INTERVIEWER_FEATURE, provider: model.provider, model: String(turns.find((t) => t['model'])?.['model'] ?? model.model),
          script: input.answers, turns, status, checksPassed: passed, checksTotal: total, totalLatencyMs: latency, inputTokens: tokensIn, outputTokens: tokensOut, error, createdBy: actorId,
        })
        .returning();
      return { ...summary(row!), turns: row!.turns };
    },

    async list(page: { limit: number; offset: number }) {
      const rows = await db.select().from(aiConversationTests).orderBy(desc(aiConversationTests.createdAt)).limit(page.limit).offset(page.offset);
      return { tests: rows.map(summary), total: await db.$count(aiConversationTests) };
    },

    /** One run with its turns, or the latest runs' turns. */
    async results(query: { test_id?: string; limit: number }) {
      const rows = query.test_id
        ? await db.select().from(aiConversationTests).where(eq(aiConversationTests.id, query.test_id))
        : await db.select().from(aiConversationTests).orderBy(desc(aiConversationTests.createdAt)).limit(query.limit);
      if (query.test_id && !rows.length) throw notFound('Conversation test', { details: { field: 'test_id' } });
      return { results: rows.map((r) => ({ ...summary(r), turns: r.turns })) };
    },

    /** Pass rates and timings over `days`, overall and per prompt version and provider. */
    async analytics(days: number) {
      const since = new Date(Date.now() - days * 86_400_000);
      const t = aiConversationTests;
      const groups = await db
        .select({
          prompt_key: t.promptKey,
          prompt_version: t.promptVersion,
          provider: t.provider,
          runs: sql<number>`count(*)::int`,
          passed_runs: sql<number>`(count(*) filter (where ${t.status} = 'passed'))::int`,
          error_runs: sql<number>`(count(*) filter (where ${t.status} = 'error'))::int`,
          checks_passed: sql<number>`coalesce(sum(${t.checksPassed}), 0)::int`,
          checks_total: sql<number>`coalesce(sum(${t.checksTotal}), 0)::int`,
          avg_latency_ms: sql<number>`coalesce(round(avg(${t.totalLatencyMs} / greatest(jsonb_array_length(${t.turns}), 1))), 0)::int`,
        })
        .from(t)
        .where(gte(t.createdAt, since))
        .groupBy(t.promptKey, t.promptVersion, t.provider)
        .orderBy(t.promptKey, desc(t.promptVersion));
      const sum = (k: 'runs' | 'passed_runs' | 'error_runs' | 'checks_passed' | 'checks_total') => groups.reduce((n, g) => n + g[k], 0);
      const checksTotal = sum('checks_total');
      return {
        period_days: days,
        totals: { runs: sum('runs'), passed_runs: sum('passed_runs'), error_runs: sum('error_runs'), check_pass_rate: checksTotal ? sum('checks_passed') / checksTotal : 0 },
        by_prompt_version: groups.map((g) => ({ ...g, check_pass_rate: g.checks_total ? g.checks_passed / g.checks_total : 0 })),
      };
    },

    /** One short real call to the provider that serves `feature` now: is it reachable, how fast. */
    async testProvider(feature: string, actorId: string) {
      const model = await llm.modelFor(feature);
      const started = performance.now();
      try {
        const result = await model.complete(
          { task: 'interview-question', input: { lastAnswer: 'I grew up in a house by the sea.' }, system: 'Ask one short question about the answer.', messages: [{ role: 'user', content: 'I grew up in a house by the sea.' }], maxTokens: 60 },
          { feature: 'admin:provider-test', userId: actorId },
        );
        return { ok: true, feature, provider: result.provider, model: result.model, latency_ms: Math.round(result.latencyMs), sample: result.text.slice(0, 300), error: null };
      } catch (err) {
        const error = err instanceof ProviderError ? `${err.kind}: ${err.message}` : 'The provider call failed';
        return { ok: false, feature, provider: model.provider, model: model.model, latency_ms: Math.round(performance.now() - started), sample: null, error };
      }
    },

    /** Raw material for debugging the tester: the latest runs in full and the usage rows they made. */
    async debugData(limit: number) {
      const runs = await db.select().from(aiConversationTests).orderBy(desc(aiConversationTests.createdAt)).limit(limit);
      const usage = await db
        .select()
        .from(aiUsageLogs)
        .where(sql`${aiUsageLogs.feature} in ('admin:conversation-test', 'admin:provider-test')`)
        .orderBy(desc(aiUsageLogs.createdAt))
        .limit(limit * 10);
      return { runs: runs.map((r) => ({ ...rowView(r) })), usage_logs: usage.map((u) => rowView(u)), interviewer: { feature: INTERVIEWER_FEATURE, provider: (await llm.modelFor(INTERVIEWER_FEATURE)).provider } };
    },
  };
}

export type ConversationTestsService = ReturnType<typeof createConversationTestsService>;
