// Where to cut speech for Moonshine, which garbles input much longer than 20-30 s: pieces of at most
// about 20 s, each cut at the quietest stretch of its window (a pause between phrases, so no word is split
// and none is heard twice), and pieces that hold no speech at all left out, so silence gives no words
// rather than invented ones. Loudness is the RMS of 10 ms frames in dBFS; "speech" is a frame clearly above
// the recording's own noise floor and above an absolute floor. Plain arithmetic, no model: bench/local-stt.ts
// compares its word error rate on the same audio.

export const SAMPLE_RATE = 16_000;
const FRAME = SAMPLE_RATE / 100;

export interface CutOptions {
  /** Longest piece, in seconds (default 20). */
  maxSeconds?: number;
  /** Shortest piece a cut may leave before it, in seconds (default 6). */
  minSeconds?: number;
}

export interface Piece {
  /** Samples from the start of the audio (end exclusive). */
  start: number;
  end: number;
}

/** Quieter than this is never speech, whatever the noise floor (digital silence, hum). */
const ABSOLUTE_FLOOR_DB = -55;
/** Speech stands at least this far above the recording's quiet frames. */
const ABOVE_NOISE_DB = 12;
/** A piece needs this much speech to be worth recognising. */
const MIN_SPEECH_SECONDS = 0.25;
/** The stretch whose mean loudness decides a cut. */
const PAUSE_FRAMES = 25;

/** Loudness of each 10 ms frame in dBFS. */
export function frameLoudness(samples: Float32Array): Float32Array {
  const frames = Math.ceil(samples.length / FRAME);
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    const from = f * FRAME;
    const to = Math.min(samples.length, from + FRAME);
    for (let i = from; i < to; i++) {
      const v = samples[i] ?? 0;
      sum += v * v;
    }
    out[f] = 10 * Math.log10(sum / Math.max(1, to - from) + 1e-12);
  }
  return out;
}

function percentile(values: Float32Array, p: number): number {
  if (values.length === 0) return -120;
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? -120;
}

/** The loudness above which a frame counts as speech in this recording. */
export function speechThreshold(loudness: Float32Array): number {
  return Math.max(ABSOLUTE_FLOOR_DB, percentile(loudness, 0.1) + ABOVE_NOISE_DB);
}

/** The frame in [from, to) at the centre of the quietest PAUSE_FRAMES stretch (the latest of equals). */
function quietestFrame(loudness: Float32Array, from: number, to: number): number {
  const half = Math.floor(PAUSE_FRAMES / 2);
  let best = to - 1;
  let bestMean = Infinity;
  let sum = 0;
  const lo = Math.max(0, from - half);
  const hi = Math.min(loudness.length, to + half);
  // A running sum over the window [i - half, i + half].
  for (let i = lo; i < Math.min(hi, lo + PAUSE_FRAMES); i++) sum += loudness[i] ?? 0;
  for (let start = lo; start + PAUSE_FRAMES <= hi; start++) {
    const centre = start + half;
    const mean = sum / PAUSE_FRAMES;
    if (centre >= from && centre < to && mean <= bestMean) {
      bestMean = mean;
      best = centre;
    }
    sum += (loudness[start + PAUSE_FRAMES] ?? 0) - (loudness[start] ?? 0);
  }
  return best;
}

/** Cut 16 kHz mono samples at pauses into pieces of at most `maxSeconds`, leaving out pieces without speech. */
export function cutAtPauses(samples: Float32Array, options: CutOptions = {}): Piece[] {
  const maxFrames = Math.round((options.maxSeconds ?? 20) * 100);
  const minFrames = Math.min(maxFrames - 1, Math.round((options.minSeconds ?? 6) * 100));
  const loudness = frameLoudness(samples);
  const threshold = speechThreshold(loudness);
  const pieces: Piece[] = [];
  const keep = (fromFrame: number, toFrame: number) => {
    let speech = 0;
    for (let f = fromFrame; f < toFrame; f++) if ((loudness[f] ?? -120) > threshold) speech++;
    if (speech / 100 >= MIN_SPEECH_SECONDS) pieces.push({ start: fromFrame * FRAME, end: Math.min(samples.length, toFrame * FRAME) });
  };
  let at = 0;
  while (loudness.length - at > maxFrames) {
    const cut = quietestFrame(loudness, at + minFrames, at + maxFrames);
    keep(at, cut);
    at = cut;
  }
  if (at < loudness.length) keep(at, loudness.length);
  return pieces;
}
