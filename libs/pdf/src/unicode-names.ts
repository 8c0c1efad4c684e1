// Unicode character names (THAI CHARACTER KO KAI), so a refusal names the character a person typed
// rather than a code point alone. unicode-name (MIT, Unicode 18 data) is an ES module: Node 20.19 and
// later load it with require; where that fails the caller falls back to the code point.
let names: { unicodeName(char: string): string | undefined } | null | undefined;

export function characterName(codePoint: number): string | undefined {
  if (names === undefined) {
    try {
      names = require('unicode-name') as { unicodeName(char: string): string | undefined };
    } catch {
      names = null;
    }
  }
  return names?.unicodeName(String.fromCodePoint(codePoint)) ?? undefined;
}
