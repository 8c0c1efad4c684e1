// One chat turn with the AI interviewer: the answer is kept first (its own transaction), then the next
// question is asked and kept (a second one), so a failing model never loses what the storyteller said.
import { AppError, conflict } from '@story/http';
import { interviewQuestion, providerForFeature, type LanguageModel } from '@story/providers';
import { providerFailure } from '../speech/provider-failure';
import type { ConversationsRepository } from './conversations.repository';
import { INTERVIEWER_SYSTEM_PROMPT, interviewHistory, oneQuestion } from './interviewer';

export function createInterviewerChat({ repo, llm }: { repo: ConversationsRepository; llm: LanguageModel }) {
  async function nextQuestion(userId: string, conversationId: string, lastAnswer: string, topic: string | undefined) {
    // A real model reads the recent turns; the offline generator needs only the last answer and topic.
    const history = (await providerForFeature(llm, 'conversation:chat')) === 'local' ? [{ role: 'user' as const, content: lastAnswer }] : interviewHistory(await repo.messagesOf(conversationId));
    const result = await llm.complete(
      { task: 'interview-question', input: { lastAnswer, topic }, system: INTERVIEWER_SYSTEM_PROMPT, promptKey: 'conversation.interviewer', messages: history, maxTokens: 160, temperature: 0.7 },
      { userId, feature: 'conversation:chat' },
    );
    const question = oneQuestion(result.text);
    // A model that answered without a usable single question is replaced by the catalogue, and says so.
    if (question) return { question, model: result.model, provider: result.provider, source: result.provider === 'local' ? 'catalogue' : 'llm' };
    return { question: interviewQuestion({ lastAnswer, topic }), model: 'local-interview-question', provider: 'local', source: 'catalogue' };
  }

  return async function chat(userId: string, input: { message: string; sessionId: string; context?: string }) {
    const first = await repo.transaction(async (tx) => {
      const conversation = await repo.upsertBySession(userId, input.sessionId, tx);
      if (conversation.status === 'completed') {
        throw conflict('This conversation is completed; start a new session to keep talking', { details: `conversation ${conversation.id}` });
      }
      const userMessageId = await repo.insertMessage(
        { conversationId: conversation.id, role: 'user', content: input.message, metadata: input.context ? { context: input.context } : {} },
        tx,
      );
      await repo.countTurn(conversation.id, tx);
      return { conversation, userMessageId };
    });

    const conversationId = first.conversation.id;
    let asked;
    try {
      asked = await nextQuestion(userId, conversationId, input.message, input.context ?? first.conversation.title ?? undefined);
    } catch (err) {
      // The answer is already kept; the client may ask again for the question.
      const failure = providerFailure(err, { what: 'The interviewer' });
      throw new AppError(failure.kind, failure.message, {
        headers: failure.headers,
        retryAfter: failure.retryAfter,
        cause: err,
        extra: { conversationId, userMessageId: first.userMessageId },
      });
    }

    const second = await repo.transaction(async (tx) => {
      const messageId = await repo.insertMessage(
        { conversationId, role: 'assistant', content: asked.question, metadata: { model: asked.model, provider: asked.provider, source: asked.source } },
        tx,
      );
      return { messageId, turnCount: await repo.countTurn(conversationId, tx) };
    });

    return {
      response: asked.question,
      conversationId,
      messageId: second.messageId,
      userMessageId: first.userMessageId,
      sessionId: input.sessionId,
      turnCount: second.turnCount,
      isNewConversation: first.conversation.created,
      model: asked.model,
    };
  };
}
