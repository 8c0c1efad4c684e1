// What each provider charges per minute of audio (USD, list price, pay-as-you-go), so usage rows carry a
// cost without a billing API call. Update here when a price changes; nothing else hard-codes one.
import type { SttProviderName } from './speech-to-text.port';

export const STT_PRICE_PER_MINUTE_USD: Readonly<Record<SttProviderName, number>> = {
  // Cloud Speech-to-Text v1, standard models, per minute billed.
  google: 0.024,
  // Deepgram Nova-2 pre-recorded, pay as you go.
  deepgram: 0.0043,
  // The local recogniser runs on this server's own CPU: no charge per minute.
  local: 0,
};

/** Cost of `seconds` of audio at the provider's per-minute price, rounded to a millionth of a dollar. */
export function sttCostUsd(provider: SttProviderName, seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.round((seconds / 60) * STT_PRICE_PER_MINUTE_USD[provider] * 1e6) / 1e6;
}
