import { createNameDeduper, safeSegment } from './entry-names';

it.each([
  ["Grandma's summer in Maine", "Grandma's summer in Maine"],
  ['../../etc/passwd', 'etc passwd'],
  ['a/b\\c:d*e?f"g<h>i|j', 'a b c d e f g h i j'],
  ['  spaced   out  ', 'spaced out'],
  ['trailing dots...', 'trailing dots'],
  ['', 'untitled'],
  ['CON', 'untitled'],
  ['x'.repeat(200), 'x'.repeat(80)],
  ['Café au lait ☕', 'Café au lait ☕'],
  ['right-to-left \u202Egnp.exe', 'right-to-left gnp.exe'],
  ['zero\u200bwidth\u2066isolate\u2069\ufeff', 'zerowidthisolate'],
  ['c1\u0085next\u009fline', 'c1 next line'],
])('safeSegment(%j) = %j', (input, expected) => expect(safeSegment(input)).toBe(expected));

it('dedupes names case-insensitively before the extension', () => {
  const dedupe = createNameDeduper();
  expect(['a.mp3', 'A.mp3', 'a.mp3', 'b'].map(dedupe)).toEqual(['a.mp3', 'A (2).mp3', 'a (3).mp3', 'b']);
});
