// A route's execution budget (spec 000 "Recording to story" 9: the conversation upload route has five
// minutes). Work past the budget is told to stop through the signal and the client gets a 504.
import { AppError } from '@story/http';

export async function withinBudget<T>(budgetMs: number, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AppError('timeout', `${what} took longer than its ${Math.round(budgetMs / 1000)} second budget and was stopped`));
    }, budgetMs);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
