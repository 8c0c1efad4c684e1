// Speech-to-text from config: one `switch` per slot with an exhaustive default (CONVENTIONS 8). The
// offline `local` recogniser is the embedded default of stt_primary (CONTRACTS §4) and can be the fallback
// of a cloud primary; `none` in both slots is a valid server: the chooser then reports recognition unavailable.
import type { RetryPolicy } from '../shared/resilience';
import type { UsageRecorder } from '../shared/usage';
import { createSpeechRecognition, type SpeechRecognition } from './chooser';
import { createDeepgramSpeechToText } from './deepgram.adapter';
import { createGoogleSpeechToText, type GoogleSpeechConfig } from './google.adapter';
import { createLocalSpeechToText, type LocalSpeechConfig } from './local.adapter';
import type { SpeechToText } from './speech-to-text.port';

export * from './speech-to-text.port';
export * from './chooser';
export { createGoogleSpeechToText, googleEncodingFor, GOOGLE_INLINE_LIMIT_BYTES, GOOGLE_LONG_RUNNING_MAX_BYTES, type GoogleSpeechConfig } from './google.adapter';
export { createDeepgramSpeechToText, DEEPGRAM_MAX_BYTES, type DeepgramSpeechConfig } from './deepgram.adapter';
export { STT_PRICE_PER_MINUTE_USD, sttCostUsd } from './stt-pricing';
export { createGcsUploader, type GcsUploadConfig } from './gcs-upload';
export { createLocalSpeechToText, assertEnglish, EnglishOnlyError, CLOUD_STT_SETTING, LOCAL_STT_MAX_SECONDS, type LocalSpeechConfig, type LocalSpeechToText } from './local.adapter';
export { MOONSHINE_MODELS, type MoonshineModel } from './local/model-files';

export interface SpeechToTextConfig {
  STT_PRIMARY: 'google' | 'local' | 'none';
  STT_FALLBACK: 'deepgram' | 'local' | 'none';
  LOCAL_STT_MODEL?: LocalSpeechConfig['model'];
  LOCAL_STT_THREADS?: number;
  LOCAL_STT_CONCURRENCY?: number;
  /** Service-account key file; unset means application default credentials (or the API key below). */
  GOOGLE_APPLICATION_CREDENTIALS?: string;
  /** API key credential for Cloud Speech-to-Text, an alternative to a service account. */
  GOOGLE_SPEECH_API_KEY?: string;
  GOOGLE_SPEECH_ENDPOINT?: string;
  GOOGLE_CLOUD_PROJECT?: string;
  DEEPGRAM_API_KEY?: string;
  DEEPGRAM_BASE_URL?: string;
}

export interface SpeechToTextDeps {
  usage: UsageRecorder;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Streams media of 14 MB or more into Cloud Storage for Google's long-running path. */
  googleGcsUri?: GoogleSpeechConfig['gcsUri'];
}

export function createSpeechToText(config: SpeechToTextConfig, deps: SpeechToTextDeps): SpeechRecognition {
  // One local recogniser (one model in memory) whichever slot it fills.
  const local = () => createLocalSpeechToText({ model: config.LOCAL_STT_MODEL ?? 'base', threads: config.LOCAL_STT_THREADS, concurrency: config.LOCAL_STT_CONCURRENCY });
  if (config.STT_PRIMARY === 'local' && config.STT_FALLBACK === 'local') throw new Error('STT_FALLBACK cannot be local when STT_PRIMARY is local');
  let primary: SpeechToText | undefined;
  switch (config.STT_PRIMARY) {
    case 'google':
      primary = createGoogleSpeechToText({
        keyFilename: config.GOOGLE_APPLICATION_CREDENTIALS,
        apiKey: config.GOOGLE_SPEECH_API_KEY,
        projectId: config.GOOGLE_CLOUD_PROJECT,
        endpoint: config.GOOGLE_SPEECH_ENDPOINT,
        timeoutMs: deps.timeoutMs,
        retry: deps.retry,
        gcsUri: deps.googleGcsUri,
      });
      break;
    case 'local':
      primary = local();
      break;
    case 'none':
      break;
    default: {
      const unknown: never = config.STT_PRIMARY;
      throw new Error(`Unknown STT_PRIMARY: ${String(unknown)}`);
    }
  }
  let fallback: SpeechToText | undefined;
  switch (config.STT_FALLBACK) {
    case 'deepgram':
      if (!config.DEEPGRAM_API_KEY) throw new Error('STT_FALLBACK=deepgram needs DEEPGRAM_API_KEY');
      fallback = createDeepgramSpeechToText({ apiKey: config.DEEPGRAM_API_KEY, baseUrl: config.DEEPGRAM_BASE_URL, timeoutMs: deps.timeoutMs, retry: deps.retry });
      break;
    case 'local':
      fallback = local();
      break;
    case 'none':
      break;
    default: {
      const unknown: never = config.STT_FALLBACK;
      throw new Error(`Unknown STT_FALLBACK: ${String(unknown)}`);
    }
  }
  return createSpeechRecognition({ primary, fallback, usage: deps.usage });
}
