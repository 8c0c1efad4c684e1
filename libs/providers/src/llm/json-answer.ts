// Turning a model's text into validated data: models wrap JSON in prose or code fences, so the first
// balanced JSON object is taken; anything that does not parse and validate is an invalid answer, never
// half-used.
import { z } from 'zod';

/** The first balanced `{...}` in `text`, parsed; undefined when there is none or it does not parse. */
export function extractJsonObject(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    // fall through to scanning: the object may be wrapped in prose or a code fence
  }
  for (let start = trimmed.indexOf('{'); start !== -1; start = trimmed.indexOf('{', start + 1)) {
    const end = balancedEnd(trimmed, start);
    if (end === -1) continue;
    try {
      return JSON.parse(trimmed.slice(start, end + 1));
    } catch {
      // try the next opening brace
    }
  }
  return undefined;
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

export type JsonCheck<T> = { ok: true; data: T } | { ok: false; problems: string[] };

/** Parse and validate a model answer against the caller's schema. */
export function checkJsonAnswer<T>(text: string, schema: z.ZodType<T>): JsonCheck<T> {
  const value = extractJsonObject(text);
  if (value === undefined) return { ok: false, problems: ['the answer is not a JSON object'] };
  return checkValue(value, schema);
}

export function checkValue<T>(value: unknown, schema: z.ZodType<T>): JsonCheck<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.slice(0, 20).map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`),
  };
}

/** System-prompt text asking for one JSON object matching the schema. */
export function jsonInstruction(schema: z.ZodType<unknown>): string {
  let described = '';
  try {
    described = JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }));
  } catch {
    // some zod types (transforms) cannot be described; the validation errors will still guide a repair
  }
  return [
    'Answer with a single JSON object and nothing else: no prose, no code fences.',
    described ? `The JSON object must match this JSON Schema: ${described}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The user turn that asks for a corrected answer after an invalid one. */
export function repairMessage(problems: string[]): string {
  return [
    'Your previous answer was not valid JSON for the required schema. Problems:',
    ...problems.map((p) => `- ${p}`),
    'Answer again with only the corrected JSON object.',
  ].join('\n');
}
