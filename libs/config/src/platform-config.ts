// The configuration every service shares, with derived flags (isS3Configured, useEmbeddedDb, ...).
// Apps call loadPlatformConfig(env) from their own loadConfig and add what is theirs.
import path from 'node:path';
import { z } from 'zod';
import { databaseEnv, emailEnv, providersEnv, rateLimitEnv, runtimeEnv, secretsEnv, storageEnv } from './env';
import { parseDkim, type DkimSettings } from './dkim';
import { ConfigError, parseEnv } from './load';
import { persistentSecret } from './secrets';
import type { TrustProxySetting } from './trust-proxy';

export const platformEnvSchema = runtimeEnv
  .extend(databaseEnv.shape)
  .extend(storageEnv.shape)
  .extend(emailEnv.shape)
  .extend(rateLimitEnv.shape)
  .extend(secretsEnv.shape)
  .extend(providersEnv.shape)
  .superRefine((env, ctx) => {
    const need = (cond: boolean, variable: string, message: string) => {
      if (cond) ctx.addIssue({ code: 'custom', path: [variable], message });
    };
    const prod = env.NODE_ENV === 'production';
    need(prod && !env.JWT_SECRET, 'JWT_SECRET', 'is required when NODE_ENV=production');
    need(prod && !env.UPLOAD_TICKET_SECRET, 'UPLOAD_TICKET_SECRET', 'is required when NODE_ENV=production');
    // Every service puts its own public address in mail or answers (unsubscribe, share pages, media and
    // OAuth links): in production a guessed localhost address would be wrong without anyone noticing.
    need(prod && !env.PUBLIC_BASE_URL, 'PUBLIC_BASE_URL', "is required when NODE_ENV=production (this service's public address, used in links)");
    need(!!env.S3_PUBLIC_ENDPOINT && !env.S3_BUCKET, 'S3_BUCKET', 'is required when S3_PUBLIC_ENDPOINT is set');
    for (const [variable, message] of parseDkim(env).issues) need(true, variable, message);
    need(!!env.S3_BUCKET && !!env.S3_ENDPOINT && !env.S3_ACCESS_KEY_ID, 'S3_ACCESS_KEY_ID', 'is required with S3_ENDPOINT');
    need(!!env.S3_BUCKET && !!env.S3_ENDPOINT && !env.S3_SECRET_ACCESS_KEY, 'S3_SECRET_ACCESS_KEY', 'is required with S3_ENDPOINT');
    need(!env.S3_BUCKET && !!env.S3_ENDPOINT, 'S3_BUCKET', 'is required when S3_ENDPOINT is set');
    need(env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET, 'S3_BUCKET', 'is required when STORAGE_DRIVER=s3');
    need(
      env.STT_PRIMARY === 'google' && !env.GOOGLE_APPLICATION_CREDENTIALS && !env.GOOGLE_SPEECH_API_KEY && !env.GOOGLE_SPEECH_ENDPOINT,
      'GOOGLE_APPLICATION_CREDENTIALS',
      'is required when STT_PRIMARY=google',
    );
    need(env.STT_FALLBACK === 'deepgram' && !env.DEEPGRAM_API_KEY, 'DEEPGRAM_API_KEY', 'is required when STT_FALLBACK=deepgram');
    need(env.STT_PRIMARY === 'local' && env.STT_FALLBACK === 'local', 'STT_FALLBACK', 'cannot be local when STT_PRIMARY is local');
    need(env.LLM_PROVIDER === 'openai' && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL, 'OPENAI_API_KEY', 'is required when LLM_PROVIDER=openai');
    need(env.LLM_PROVIDER === 'anthropic' && !env.ANTHROPIC_API_KEY, 'ANTHROPIC_API_KEY', 'is required when LLM_PROVIDER=anthropic');
    need(env.SEARCH_PROVIDER === 'meilisearch' && !env.MEILI_URL, 'MEILI_URL', 'is required when SEARCH_PROVIDER=meilisearch');
  });

export type PlatformEnv = z.infer<typeof platformEnvSchema>;

export interface PlatformConfig {
  nodeEnv: PlatformEnv['NODE_ENV'];
  isProduction: boolean;
  host: string;
  ports: { coreApi: number; emailService: number; toolsApi: number };
  dataDir: string;
  logLevel: PlatformEnv['LOG_LEVEL'];
  corsOrigins: string[];
  publicBaseUrl?: string;
  appUrl: string;
  /** Fastify's trustProxy: false unless TRUST_PROXY names a hop count or the proxies' addresses. */
  trustProxy: TrustProxySetting;
  database: { url?: string; useEmbedded: boolean; embeddedPort: number; poolMax: number; sessionCacheMs: number };
  storage:
    | {
        driver: 's3';
        bucket: string;
        endpoint?: string;
        /** S3_PUBLIC_ENDPOINT: the address presigned URLs name (browsers reach storage there); default `endpoint`. */
        publicEndpoint?: string;
        region: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
      }
    | { driver: 'local'; root: string }
    | { driver: 'none' };
  email: { driver: 'smtp'; smtpUrl: string; from: string; dkim?: DkimSettings } | { driver: 'outbox'; outboxDir: string; from: string };
  rateLimit: { redisUrl?: string; scale: number };
  /** tools-api search (spec 002 GET /api/search): PostgreSQL full text, or Meilisearch fed by the job runner. */
  search: { provider: 'postgres' } | { provider: 'meilisearch'; url: string; apiKey?: string; index: string };
  secrets: { jwtSecret: string; uploadTicketSecret: string; cronSecret?: string; emailWebhookSecret?: string };
  /** Emails that hold role admin (support) while listed and verified. */
  adminEmails: string[];
  supportEmails: string[];
  providers: { STT_PRIMARY: 'google' | 'local' | 'none' } & Pick<
    PlatformEnv,
    | 'STT_FALLBACK'
    | 'LOCAL_STT_MODEL'
    | 'LOCAL_STT_THREADS'
    | 'LOCAL_STT_CONCURRENCY'
    | 'GOOGLE_APPLICATION_CREDENTIALS'
    | 'GOOGLE_SPEECH_API_KEY'
    | 'GOOGLE_CLOUD_PROJECT'
    | 'GOOGLE_SPEECH_ENDPOINT'
    | 'GOOGLE_STT_GCS_BUCKET'
    | 'GOOGLE_STORAGE_ENDPOINT'
    | 'DEEPGRAM_API_KEY'
    | 'DEEPGRAM_BASE_URL'
    | 'ELEVENLABS_API_KEY'
    | 'ELEVENLABS_BASE_URL'
    | 'LLM_PROVIDER'
    | 'OPENAI_API_KEY'
    | 'OPENAI_BASE_URL'
    | 'OPENAI_MODEL'
    | 'ANTHROPIC_API_KEY'
    | 'ANTHROPIC_BASE_URL'
    | 'ANTHROPIC_MODEL'
    | 'PROVIDER_TIMEOUT_MS'
    | 'BILLING_PROVIDER'
    | 'BILLING_OFFLINE_ACKNOWLEDGED'
  >;
}

export const DEFAULT_APP_URL = 'http://localhost:5173';

export interface PlatformLoadOptions {
  /**
   * Link bases this service needs beyond its own PUBLIC_BASE_URL (core-api and email-service: APP_URL):
   * with NODE_ENV=production each must be set, reported in the same one-line error as every other issue.
   */
  publicUrlsInProduction?: string[];
}

function missingInProduction(env: Record<string, string | undefined>, variables: string[]): string[] {
  if (env['NODE_ENV'] !== 'production') return [];
  return variables.filter((v) => !env[v]?.trim()).map((v) => `${v}: is required when NODE_ENV=production (links in mail and answers are built from it)`);
}

const DEFAULT_ORIGINS = ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://localhost:5173'];

/** Parse the shared environment. Dev secrets missing from env are generated once under DATA_DIR. */
export function loadPlatformConfig(env: Record<string, string | undefined>, options: PlatformLoadOptions = {}): PlatformConfig {
  const missing = missingInProduction(env, options.publicUrlsInProduction ?? []);
  let e: PlatformEnv;
  try {
    e = parseEnv(platformEnvSchema, env);
  } catch (err) {
    if (err instanceof ConfigError && missing.length > 0) throw new ConfigError([...err.issues, ...missing]);
    throw err;
  }
  if (missing.length > 0) throw new ConfigError(missing);
  const dataDir = path.resolve(e.DATA_DIR);
  const dkim = parseDkim(e).settings;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.HOST,
    ports: { coreApi: e.CORE_API_PORT, emailService: e.EMAIL_SERVICE_PORT, toolsApi: e.TOOLS_API_PORT },
    dataDir,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS.length > 0 ? e.CORS_ORIGINS : DEFAULT_ORIGINS,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    appUrl: (e.APP_URL ?? DEFAULT_APP_URL).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    database: { url: e.DATABASE_URL, useEmbedded: !e.DATABASE_URL, embeddedPort: e.EMBEDDED_PG_PORT, poolMax: e.DB_POOL_MAX, sessionCacheMs: e.SESSION_CACHE_MS },
    storage: storageConfig(e, dataDir),
    email: e.SMTP_URL
      ? { driver: 'smtp', smtpUrl: e.SMTP_URL, from: e.EMAIL_FROM, ...(dkim ? { dkim } : {}) }
      : { driver: 'outbox', outboxDir: path.join(dataDir, 'outbox'), from: e.EMAIL_FROM },
    rateLimit: { redisUrl: e.REDIS_URL, scale: e.RATE_LIMIT_SCALE },
    search: e.SEARCH_PROVIDER === 'meilisearch' && e.MEILI_URL ? { provider: 'meilisearch', url: e.MEILI_URL, apiKey: e.MEILI_API_KEY, index: e.MEILI_INDEX } : { provider: 'postgres' },
    secrets: {
      jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir, 'jwt-secret'),
      uploadTicketSecret: e.UPLOAD_TICKET_SECRET ?? persistentSecret(dataDir, 'upload-ticket-secret'),
      cronSecret: e.CRON_SECRET,
      emailWebhookSecret: e.EMAIL_WEBHOOK_SECRET,
    },
    adminEmails: e.ADMIN_EMAILS,
    supportEmails: e.SUPPORT_EMAILS,
    providers: {
      STT_PRIMARY: e.STT_PRIMARY ?? (e.STT_FALLBACK === 'none' ? 'local' : 'none'),
      STT_FALLBACK: e.STT_FALLBACK,
      LOCAL_STT_MODEL: e.LOCAL_STT_MODEL,
      LOCAL_STT_THREADS: e.LOCAL_STT_THREADS,
      LOCAL_STT_CONCURRENCY: e.LOCAL_STT_CONCURRENCY,
      GOOGLE_APPLICATION_CREDENTIALS: e.GOOGLE_APPLICATION_CREDENTIALS,
      GOOGLE_SPEECH_API_KEY: e.GOOGLE_SPEECH_API_KEY,
      GOOGLE_CLOUD_PROJECT: e.GOOGLE_CLOUD_PROJECT,
      GOOGLE_SPEECH_ENDPOINT: e.GOOGLE_SPEECH_ENDPOINT,
      GOOGLE_STT_GCS_BUCKET: e.GOOGLE_STT_GCS_BUCKET,
      GOOGLE_STORAGE_ENDPOINT: e.GOOGLE_STORAGE_ENDPOINT,
      DEEPGRAM_API_KEY: e.DEEPGRAM_API_KEY,
      DEEPGRAM_BASE_URL: e.DEEPGRAM_BASE_URL,
      ELEVENLABS_API_KEY: e.ELEVENLABS_API_KEY,
      ELEVENLABS_BASE_URL: e.ELEVENLABS_BASE_URL,
      LLM_PROVIDER: e.LLM_PROVIDER,
      OPENAI_API_KEY: e.OPENAI_API_KEY,
      OPENAI_BASE_URL: e.OPENAI_BASE_URL,
      OPENAI_MODEL: e.OPENAI_MODEL,
      ANTHROPIC_API_KEY: e.ANTHROPIC_API_KEY,
      ANTHROPIC_BASE_URL: e.ANTHROPIC_BASE_URL,
      ANTHROPIC_MODEL: e.ANTHROPIC_MODEL,
      PROVIDER_TIMEOUT_MS: e.PROVIDER_TIMEOUT_MS,
      BILLING_PROVIDER: e.BILLING_PROVIDER,
      BILLING_OFFLINE_ACKNOWLEDGED: e.BILLING_OFFLINE_ACKNOWLEDGED,
    },
  };
}

/** S3 when S3_BUCKET is set (unless STORAGE_DRIVER says local), files under $DATA_DIR/storage otherwise; none only when asked. */
function storageConfig(e: PlatformEnv, dataDir: string): PlatformConfig['storage'] {
  if (e.STORAGE_DRIVER === 'none') return { driver: 'none' };
  if (!e.S3_BUCKET || e.STORAGE_DRIVER === 'local') return { driver: 'local', root: path.join(dataDir, 'storage') };
  return {
    driver: 's3',
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    ...(e.S3_PUBLIC_ENDPOINT ? { publicEndpoint: e.S3_PUBLIC_ENDPOINT } : {}),
  };
}
