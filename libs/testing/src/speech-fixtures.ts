// Speech the local recogniser is tested and benchmarked on (fixtures/speech/README.md says where each
// comes from and under what licence): a public-domain recording of human speech with its known words,
// and a family story whose spoken form the tests make with eSpeak NG at run time.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(__dirname, '..', 'fixtures', 'speech');

/** 11 s of John F. Kennedy's 1961 inaugural address (public domain), 16 kHz mono WAV, and what he says. */
export const JFK_SPEECH = {
  file: path.join(DIR, 'jfk-inaugural-1961.wav'),
  text: 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.',
  seconds: 11,
};

/** The whole family story (616 words, about 3 minutes spoken by eSpeak NG). */
export function familyStory(): string {
  return readFileSync(path.join(DIR, 'family-story.txt'), 'utf8').replace(/\s+/g, ' ').trim();
}

/** The story's sentences, in order. */
export function familyStorySentences(): string[] {
  return familyStory()
    .split(/(?<=[.!?])\s+/)
    .filter(Boolean);
}

/** The story's first sentences, about a minute when spoken. */
export function familyStoryMinute(): string {
  return familyStorySentences().slice(0, 12).join(' ');
}
