// What every core-api feature area is given by app.ts. Areas take what they need and narrow it further
// for their services (CONVENTIONS 6).
import type { onRequestHookHandler } from 'fastify';
import type { Database } from '@story/db';
import type { RateLimitHandle } from '@story/http';
import type { JobRunner } from '@story/jobs';
import type { Providers } from '@story/providers';
import type { Sql } from 'postgres';
import type { CoreApiConfig } from '../config';
import type { AccessPolicy } from './access/access.policy';

export interface CoreFeatureDeps {
  db: Database;
  sql: Sql;
  providers: Providers;
  config: CoreApiConfig;
  rateLimit: RateLimitHandle;
  access: AccessPolicy;
  /** The core queue's job runner: an area defines its job kinds on it and enqueues in its transactions. */
  jobs: JobRunner;
  /** The Bearer-token hook: add it in an encapsulated scope (`scope.addHook('onRequest', deps.authHook)`). */
  authHook: onRequestHookHandler;
}
