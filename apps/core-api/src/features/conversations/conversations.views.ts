// What the conversations area answers with: rows turned into the views the routes' schemas describe.
import type { ConversationRow, MessageRow } from './conversations.repository';

/** Spec 000 Limits: a conversation turn is at most 5 minutes. */
export const MAX_TURN_SECONDS = 300;
export const MAX_TAGS = 20;

export interface ConversationView {
  id: string;
  sessionId: string | null;
  campaignId: string | null;
  title: string | null;
  overview: string | null;
  status: 'active' | 'completed';
  tags: string[];
  turnCount: number;
  totalDurationSeconds: number;
  qualityMetrics: Record<string, unknown> | null;
  analysis: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export interface MessageView {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  durationSeconds: number | null;
  hasAudio: boolean;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export const toView = (row: ConversationRow): ConversationView => ({
  id: row.id,
  sessionId: row.sessionId,
  campaignId: row.campaignId,
  title: row.title,
  overview: row.overview,
  status: row.status,
  tags: row.tags,
  turnCount: row.turnCount,
  totalDurationSeconds: row.totalDurationSeconds,
  qualityMetrics: row.qualityMetrics ?? null,
  analysis: row.analysis ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  completedAt: row.completedAt ? row.completedAt.toISOString() : null,
});

export const toMessage = (row: MessageRow): MessageView => ({
  id: row.id,
  role: row.role,
  content: row.content,
  durationSeconds: row.durationSeconds,
  hasAudio: row.audioStorageKey !== null,
  metadata: row.metadata,
  createdAt: row.createdAt.toISOString(),
});

/** Tags as stored: trimmed, lower case, unique, in the order given (the route has checked their shape). */
export function normalizeTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
}

/** The storyteller's own words: the answers, not the interviewer's questions. */
export const answersText = (messages: { role: string; content: string }[]) =>
  messages
    .filter((m) => m.role === 'user' && m.content.trim())
    .map((m) => m.content.trim())
    .join('\n\n');
