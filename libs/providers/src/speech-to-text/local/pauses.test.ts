// Cutting at pauses on made-up signals whose pauses are known: where the cuts fall, how long pieces get,
// and that pieces without speech are left out.
import { cutAtPauses, SAMPLE_RATE } from './pauses';

/** Bursts of a loud 300 Hz tone with quiet gaps: [seconds of sound, seconds of gap, ...]. */
function bursts(pattern: number[], noise = 0.0005): Float32Array {
  const total = pattern.reduce((a, b) => a + b, 0);
  const out = new Float32Array(Math.round(total * SAMPLE_RATE));
  let at = 0;
  let seed = 7;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
  pattern.forEach((seconds, i) => {
    const n = Math.round(seconds * SAMPLE_RATE);
    for (let k = 0; k < n; k++) {
      // Speech-like: the loudness rises and falls within a burst.
      out[at + k] = (i % 2 === 0 ? 0.3 * Math.sin((2 * Math.PI * 300 * k) / SAMPLE_RATE) * (0.6 + 0.4 * Math.sin((2 * Math.PI * 3 * k) / SAMPLE_RATE)) : 0) + noise * random();
    }
    at += n;
  });
  return out;
}

const seconds = (samples: number) => samples / SAMPLE_RATE;

describe('cutAtPauses', () => {
  it('keeps a short recording whole', () => {
    expect(cutAtPauses(bursts([5, 0.5, 4]))).toEqual([{ start: 0, end: Math.round(9.5 * SAMPLE_RATE) }]);
  });

  it('cuts long speech inside its pauses, into pieces of at most 20 s that follow each other', () => {
    // Phrases of 4.5 s with 0.6 s pauses for a minute; one pause in the middle of each window is the quietest.
    const pattern: number[] = [];
    for (let i = 0; i < 12; i++) pattern.push(4.5, 0.6);
    const samples = bursts(pattern);
    const pieces = cutAtPauses(samples);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    let previousEnd = 0;
    for (const p of pieces) {
      expect(p.start).toBe(previousEnd);
      expect(seconds(p.end - p.start)).toBeLessThanOrEqual(20);
      previousEnd = p.end;
    }
    expect(previousEnd).toBe(samples.length);
    // Every cut falls in a pause (4.5 s of sound, then 0.6 s of quiet, repeating).
    for (const p of pieces.slice(1)) {
      const inCycle = seconds(p.start) % 5.1;
      expect(inCycle).toBeGreaterThan(4.5);
    }
  });

  it('cuts speech without any pause at the 20 s limit', () => {
    const pieces = cutAtPauses(bursts([50]));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    // No piece shorter than the 6 s a cut must leave before it, none longer than 20 s, and the whole 50 s covered.
    for (const p of pieces) expect(seconds(p.end - p.start)).toBeLessThanOrEqual(20);
    for (const p of pieces.slice(0, -1)) expect(seconds(p.end - p.start)).toBeGreaterThanOrEqual(6);
    expect(pieces.reduce((sum, p) => sum + p.end - p.start, 0)).toBe(50 * SAMPLE_RATE);
  });

  it('leaves out pieces that hold no speech, so long silences are never recognised', () => {
    // 5 s of speech, 45 s of near silence, 5 s of speech.
    const pieces = cutAtPauses(bursts([5, 45, 5]));
    const kept = pieces.map((p) => [seconds(p.start), seconds(p.end)]);
    expect(kept.length).toBe(2);
    expect(kept[0]![0]).toBe(0);
    expect(kept[1]![1]).toBeCloseTo(55, 1);
    // The silence between them is in no piece.
    expect(kept[1]![0] - kept[0]![1]).toBeGreaterThan(10);
  });

  it('digital silence and a steady tone give no pieces', () => {
    expect(cutAtPauses(new Float32Array(SAMPLE_RATE * 30))).toEqual([]);
    const tone = new Float32Array(SAMPLE_RATE * 30).map((_, k) => 0.2 * Math.sin((2 * Math.PI * 440 * k) / SAMPLE_RATE));
    expect(cutAtPauses(tone)).toEqual([]);
  });
});
