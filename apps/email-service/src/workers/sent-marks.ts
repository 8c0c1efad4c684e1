// Group commit of the worker's "sent" checkpoints: a lane hands its sent row over and goes on to the next
// message; the rows that became ready while one UPDATE was in flight are written together by the next one.
// The at-least-once window (sent, not yet marked) grows by at most that one statement.
import type { EmailQueueRepository, Redaction } from './email-queue.repository';

export interface SentMark {
  id: string;
  providerMessageId: string;
  messageId: string;
  /** The copy a credential email keeps once sent (null: the row holds no credential). */
  redaction?: Redaction | null;
}

interface Waiting extends SentMark {
  resolve(held: boolean): void;
  reject(err: unknown): void;
}

/**
 * `mark` resolves true when this worker still held the row (false: it was reclaimed meanwhile). `markOne` is
 * the one-row fallback, used for every row of a group that hit a unique provider id (23505).
 */
export function createSentMarks(queue: Pick<EmailQueueRepository, 'markSentMany'>, markOne: (mark: SentMark) => Promise<boolean>) {
  let waiting: Waiting[] = [];
  let flushing = false;

  async function flushGroup(group: Waiting[]): Promise<void> {
    try {
      const held = await queue.markSentMany(group);
      for (const w of group) w.resolve(held.has(w.id));
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') {
        for (const w of group) w.reject(err);
        return;
      }
      for (const w of group) await markOne(w).then(w.resolve, w.reject);
    }
  }

  async function drain(): Promise<void> {
    flushing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      await flushGroup(group);
    }
    flushing = false;
  }

  return {
    mark(mark: SentMark): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ ...mark, resolve, reject });
        if (!flushing) void drain();
      });
    },
  };
}
