// What every tools feature plugin receives from app.ts.
import type { SessionLookup, TokenSigner } from '@story/auth';
import type { DbClient } from '@story/db';
import type { Providers } from '@story/providers';

export interface ToolsFeatureDeps {
  db: DbClient['db'];
  sql: DbClient['sql'];
  providers: Providers;
  /** For requireToolsSession / optionalToolsSession ({sql, tokens, sessions}). */
  tokens: Pick<TokenSigner, 'verify'>;
  sessions: SessionLookup;
  /** HMAC key of the per-address rate-limit key (shared/caller ipHashKeyOf). */
  ipHashKey: string;
  /** RATE_LIMIT_SCALE: multiplies every limit consumeCounters takes (load tests). */
  limitScale: number;
  /** Public base URL of tools-api without trailing slash (share URLs, canonical links). */
  publicBaseUrl: string;
}
