// The environment variables of CONTRACTS §1 and §4, parsed once with zod. Each app composes the
// pieces it needs into its own schema (apps/<app>/src/config.ts); nothing here reads process.env.
import { z } from 'zod';
import { trustProxyField } from './trust-proxy';
import { parseSmtpUrl, SmtpUrlError } from './smtp-url';

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? def : v === 'true' || v === '1' || v === 'yes'));

const port = (def: number) => z.coerce.number().int().min(1).max(65535).default(def);
const optionalString = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalUrl = (protocols: string[]) =>
  optionalString().refine((v) => v === undefined || isUrlWith(v, protocols), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  });

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const csv = () =>
  optionalString().transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** Runtime, network and data location. */
export const runtimeEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development').describe('Runtime mode; production requires real secrets'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Bind address (containers set 0.0.0.0)'),
  CORE_API_PORT: port(3000).describe('core-api port'),
  EMAIL_SERVICE_PORT: port(3001).describe('email-service port'),
  TOOLS_API_PORT: port(3002).describe('tools-api port'),
  DATA_DIR: z.string().min(1).default('./.data').describe('Where embedded defaults keep their data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: csv().describe("The application's own origins (comma-separated), allowed with credentials"),
  PUBLIC_BASE_URL: optionalUrl(['http:', 'https:']).describe('Public address of this service, used in links; required when NODE_ENV=production'),
  APP_URL: optionalUrl(['http:', 'https:']).describe('The web application, for links in emails (default http://localhost:5173); required by core-api and email-service when NODE_ENV=production'),
  TRUST_PROXY: trustProxyField(),
});

/** Database: DATABASE_URL, else the embedded server. */
export const databaseEnv = z.object({
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']).describe('PostgreSQL URL; unset: the embedded server'),
  EMBEDDED_PG_PORT: port(54329).describe('Port of the embedded PostgreSQL server'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10).describe('postgres.js pool size per process'),
  SESSION_CACHE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(30_000)
    .describe('How long a verified session is reused without a query (changes arrive at once by LISTEN/NOTIFY); 0 asks PostgreSQL on every request'),
});

/** Object storage: S3 when S3_BUCKET is set, else files under $DATA_DIR/storage. */
export const storageEnv = z.object({
  STORAGE_DRIVER: z
    .enum(['s3', 'local', 'none'])
    .optional()
    .describe('Object storage: s3 (needs S3_BUCKET), local, or none (media uploads refused with 503, rows kept as upload_failed); default s3 when S3_BUCKET is set, else local'),
  S3_BUCKET: optionalString(),
  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString(),
  S3_SECRET_ACCESS_KEY: optionalString(),
  S3_FORCE_PATH_STYLE: bool(false),
  S3_PUBLIC_ENDPOINT: optionalUrl(['http:', 'https:']).describe('Storage address browsers use for presigned URLs (e.g. the host-published MinIO port); default S3_ENDPOINT'),
});

/** Email delivery: SMTP when SMTP_URL is set, else .eml files under $DATA_DIR/outbox. */
export const emailEnv = z.object({
  SMTP_URL: optionalString()
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      try {
        parseSmtpUrl(v);
      } catch (err) {
        if (!(err instanceof SmtpUrlError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
      }
    })
    .describe('smtp:// (STARTTLS when offered) or smtps://; TLS options as query parameters (libs/config smtp-url.ts)'),
  EMAIL_FROM: z.string().default('Family Stories <stories@localhost>'),
  DKIM_DOMAIN: optionalString().describe('DKIM signing domain (d=); with DKIM_SELECTOR and DKIM_PRIVATE_KEY'),
  DKIM_SELECTOR: optionalString().describe('DKIM selector (s=): the key is published at <selector>._domainkey.<domain>'),
  // Never echoed in a configuration error (load.ts): a private key. Checked in platform-config.ts.
  DKIM_PRIVATE_KEY: z.string().optional().describe('RSA private key (PEM; \\n accepted for newlines) that signs outgoing mail'),
});

/** Shared rate-limit store and the scale applied to every limit (load tests raise it). */
export const rateLimitEnv = z.object({
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1).describe('Multiplies every rate limit; 1 in production'),
});

/** Secrets. JWT_SECRET is required in production; elsewhere it is generated once under DATA_DIR. */
export const secretsEnv = z.object({
  JWT_SECRET: optionalString().refine((v) => v === undefined || v.length >= 32, { message: 'must be at least 32 characters' }),
  CRON_SECRET: optionalString().refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  EMAIL_WEBHOOK_SECRET: optionalString().refine((v) => v === undefined || /^whsec_[A-Za-z0-9+/=]+$/.test(v), {
    message: 'must look like whsec_<base64>',
  }),
  UPLOAD_TICKET_SECRET: optionalString().refine((v) => v === undefined || v.length >= 32, { message: 'must be at least 32 characters' }),
  // Listed emails hold the role only once verified (CONTRACTS §1 and §7); see roleForAccount in libs/auth.
  ADMIN_EMAILS: csv().transform((list) => list.map((e) => e.toLowerCase())),
  SUPPORT_EMAILS: csv().transform((list) => list.map((e) => e.toLowerCase())),
});

/** AI and speech providers (CONTRACTS §4); every base URL is configurable so tests use local fakes. */
export const providersEnv = z.object({
  // Unset: local (the offline recogniser, CONTRACTS §4), unless STT_FALLBACK names a provider, which then serves alone.
  STT_PRIMARY: z.enum(['google', 'local', 'none']).optional().describe('stt_primary: google, local (offline, English) or none'),
  STT_FALLBACK: z.enum(['deepgram', 'local', 'none']).default('none'),
  LOCAL_STT_MODEL: z.enum(['base', 'tiny']).default('base').describe('Moonshine model of the local recogniser: base, or tiny for small machines'),
  LOCAL_STT_THREADS: z.coerce.number().int().min(1).max(64).optional().describe('onnxruntime threads per local transcription (default 1)'),
  LOCAL_STT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1).describe('Local transcriptions run side by side per process, each with its own copy of the model'),
  GOOGLE_APPLICATION_CREDENTIALS: optionalString().describe('Service-account key file for Cloud Speech-to-Text'),
  GOOGLE_SPEECH_API_KEY: optionalString().describe('API key for Cloud Speech-to-Text (instead of a service account)'),
  GOOGLE_CLOUD_PROJECT: optionalString().describe('Google project id (spares the client a metadata-server probe)'),
  GOOGLE_SPEECH_ENDPOINT: optionalString(),
  GOOGLE_STT_GCS_BUCKET: optionalString().describe('Cloud Storage bucket for recordings of 14 MB or more (long-running recognition)'),
  GOOGLE_STORAGE_ENDPOINT: optionalUrl(['http:', 'https:']).describe('Cloud Storage endpoint (emulators and tests)'),
  DEEPGRAM_API_KEY: optionalString(),
  DEEPGRAM_BASE_URL: optionalUrl(['http:', 'https:']),
  ELEVENLABS_API_KEY: optionalString(),
  ELEVENLABS_BASE_URL: optionalUrl(['http:', 'https:']),
  LLM_PROVIDER: z.enum(['local', 'openai', 'anthropic']).default('local'),
  OPENAI_API_KEY: optionalString(),
  OPENAI_BASE_URL: optionalUrl(['http:', 'https:']),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  ANTHROPIC_API_KEY: optionalString(),
  ANTHROPIC_BASE_URL: optionalUrl(['http:', 'https:']),
  ANTHROPIC_MODEL: z.string().default('claude-3-5-haiku-latest'),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000).describe('Deadline of one provider call'),
  SEARCH_PROVIDER: z
    .enum(['postgres', 'meilisearch'])
    .default('postgres')
    .describe('tools-api search: postgres (full text in the database, the default) or meilisearch (MEILI_URL; kept in sync by the job runner)'),
  MEILI_URL: optionalUrl(['http:', 'https:']),
  MEILI_API_KEY: z.string().min(1).optional().describe('Meilisearch key with documents, search, settings and tasks rights'),
  MEILI_INDEX: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).default('tools').describe('Meilisearch index of tools content and responses'),
  BILLING_PROVIDER: z.enum(['offline']).default('offline').describe('Payments (gifts): offline records each charge as paid; a card processor adapter joins this list'),
  BILLING_OFFLINE_ACKNOWLEDGED: bool(false).describe(
    'true: the operator means to run BILLING_PROVIDER=offline (every charge recorded as paid) with NODE_ENV=production; without it core-api refuses to start (CONTRACTS §9)',
  ),
});

export type RuntimeEnv = z.infer<typeof runtimeEnv>;
