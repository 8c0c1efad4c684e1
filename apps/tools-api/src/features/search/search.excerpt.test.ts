// The snippets of the PostgreSQL engine, made in JavaScript around the query's stemmed lexemes.
import { excerptOf, stringsOf } from './search.repository';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('excerptOf', () => {
  it('centres a 30-word window on the first match, whatever form of the word the text has', () => {
    const body = `${words(40)} the Lighthouses, at dusk ${words(40, 'v')}`;
    const excerpt = excerptOf(body, ['lighthous']);
    expect(excerpt).toContain('Lighthouses,');
    expect(excerpt.split(' ')).toHaveLength(30);
    expect(excerpt.startsWith('w')).toBe(true);
  });

  it('matches the stemmer’s rewritten endings (happy of happi, stories of stori)', () => {
    expect(excerptOf('a happy ending', ['happi'])).toBe('a happy ending');
    expect(excerptOf(`${words(50)} two stories here`, ['stori'])).toContain('stories');
    expect(excerptOf(`${words(50)} a hap here`, ['happi'])).not.toContain('hap');
  });

  it('gives at most two windows, in text order, joined by an ellipsis, never overlapping', () => {
    const body = `secret ${words(60)} secret ${words(60, 'v')} secret ${words(10, 'x')}`;
    const excerpt = excerptOf(body, ['secret']);
    const fragments = excerpt.split(' … ');
    expect(fragments).toHaveLength(2);
    expect(fragments[0]!.split(' ')[0]).toBe('secret');
    expect(fragments[1]).toContain('secret');
    expect(fragments[1]).not.toContain('x0');
    const all = excerpt.replace(' … ', ' ').split(' ');
    expect(new Set(all.filter((w) => w !== 'secret')).size).toBe(all.filter((w) => w !== 'secret').length);
  });

  it('finds a match deep in a long text and keeps punctuation attached to its word', () => {
    const body = `${words(8000)} ("Secret!" she said) ${words(20, 'v')}`;
    const excerpt = excerptOf(body, ['secret']);
    expect(excerpt).toContain('("Secret!"');
    expect(excerpt.split(' ')).toHaveLength(30);
    expect(excerpt).toContain('w7999');
  });

  it('reaches back near the end of the text and starts at the text when nothing matches', () => {
    expect(excerptOf(`${words(50)} secret`, ['secret']).split(' ')).toHaveLength(30);
    expect(excerptOf(`${words(50)} secret`, ['secret']).endsWith('secret')).toBe(true);
    expect(excerptOf(words(50), ['zeppelin'])).toBe(words(30));
    expect(excerptOf('', ['zeppelin'])).toBe('');
  });

  it('reads every string of a content json in order, not its keys or syntax', () => {
    expect(stringsOf({ title: 'T', cards: [{ front: 'F1', back: 'B1', n: 3 }, { front: 'F2' }], flag: true, none: null })).toEqual(['T', 'F1', 'B1', 'F2']);
  });
});
