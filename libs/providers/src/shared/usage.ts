// Every AI call is recorded with its cost (spec 000 "AI cost tracking": stt per audio minute, llm per
// token, tts per character). Adapters report what they measured; the recorder writes ai_usage_logs.
import { aiUsageLogs, type Database } from '@story/db';

export interface UsageEntry {
  userId?: string | null;
  /** The product feature that asked: transcription, story-conversion, tts, tools:<tool>, ... */
  feature: string;
  provider: string;
  model?: string;
  operation: 'stt' | 'tts' | 'llm';
  inputTokens?: number;
  outputTokens?: number;
  audioSeconds?: number;
  characters?: number;
  costUsd: number;
  latencyMs: number;
  success: boolean;
  errorCode?: string;
  metadata?: Record<string, unknown>;
}

export interface UsageRecorder {
  /** Store one call's usage; never throws into the caller's request. */
  record(entry: UsageEntry): Promise<void>;
}

export function createDbUsageRecorder(db: Database, onError?: (err: unknown) => void): UsageRecorder {
  return {
    async record(e) {
      try {
        await db.insert(aiUsageLogs).values({
          userId: e.userId ?? null,
          feature: e.feature,
          provider: e.provider,
          model: e.model ?? null,
          operation: e.operation,
          inputTokens: e.inputTokens ?? null,
          outputTokens: e.outputTokens ?? null,
          audioSeconds: e.audioSeconds ?? null,
          characters: e.characters ?? null,
          sttCostUsd: e.operation === 'stt' ? e.costUsd : 0,
          llmCostUsd: e.operation === 'llm' ? e.costUsd : 0,
          ttsCostUsd: e.operation === 'tts' ? e.costUsd : 0,
          latencyMs: Math.round(e.latencyMs),
          success: e.success,
          errorCode: e.errorCode ?? null,
          metadata: e.metadata ?? {},
        });
      } catch (err) {
        onError?.(err);
      }
    },
  };
}

/** A recorder that keeps entries in memory (unit tests, scripts). */
export function createMemoryUsageRecorder(): UsageRecorder & { entries: UsageEntry[] } {
  const entries: UsageEntry[] = [];
  return { entries, record: async (e) => void entries.push(e) };
}
