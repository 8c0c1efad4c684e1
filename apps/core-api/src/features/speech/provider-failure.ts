// Provider failures in this area's words (CONTRACTS §3: never a provider's raw error). A ProviderError's
// kind picks the status; the sentence is ours, naming what failed, so a client can tell a retry apart
// from a request it must change.
import { AppError } from '@story/http';
import { ProviderError } from '@story/providers';

export interface FailureContext {
  /** What was attempted, e.g. 'Speech recognition', 'Speech synthesis', 'The interviewer'. */
  what: string;
  /** Request field to blame when the provider refused the input. */
  field?: string;
  /** Sentence for refused input (defaults to a generic one). */
  rejected?: string;
}

export function providerFailure(err: unknown, ctx: FailureContext): AppError {
  if (err instanceof AppError) return err;
  if (!(err instanceof ProviderError)) {
    return new AppError('bad_gateway', `${ctx.what} failed`, { cause: err });
  }
  switch (err.kind) {
    case 'rejected_input':
      return new AppError('validation', ctx.rejected ?? `${ctx.what} could not use this input${ctx.field ? ` (${ctx.field})` : ''}`, { field: ctx.field, cause: err });
    case 'quota':
      return new AppError('rate_limited', `${ctx.what} is over its provider's rate limit right now. Try again in a minute.`, { retryAfter: 60, cause: err });
    case 'timeout':
      return new AppError('timeout', `${ctx.what} did not answer in time. Try again.`, { cause: err });
    case 'unavailable':
      // provider 'none' is the "nothing configured" case, which retrying cannot fix.
      return err.provider === 'none'
        ? new AppError('unavailable', `${ctx.what} is not configured on this server`, { cause: err })
        : new AppError('bad_gateway', `${ctx.what} is unavailable right now. Try again later.`, { cause: err });
    case 'not_found':
    case 'auth':
    case 'failed':
      return new AppError('bad_gateway', `${ctx.what} failed at the provider`, { cause: err });
    default: {
      const unknown: never = err.kind;
      return new AppError('bad_gateway', `${ctx.what} failed (${String(unknown)})`, { cause: err });
    }
  }
}
