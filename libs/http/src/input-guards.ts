// Hostile-input guards shared by the three services, applied once to every route (CONTRACTS §3):
// - text PostgreSQL cannot store (U+0000, unpaired UTF-16 surrogates: 22021/22P05/22P02) is refused with a
//   400 naming the field, in the body, the query and the path parameters alike;
// - JSON nested deeper than MAX_JSON_DEPTH is refused before any code stringifies it (a 5,000-deep
//   jsonb value overflowed the stack);
// - coerced numbers in the query take plain decimal digits only (z.coerce.number() reads `0x10` as 16).
// Every walk is iterative, so hostile nesting cannot overflow the stack here either.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** Deepest nesting of objects and arrays accepted in a JSON body or JSON text field. */
export const MAX_JSON_DEPTH = 32;

const TEXT_PROBLEM = 'contains a NUL character or an unpaired surrogate';

/** True when PostgreSQL can store the string as text or jsonb: no U+0000, no lone surrogate. */
export function isStorableText(value: string): boolean {
  // String.prototype.isWellFormed (Node 20+, ES2024: newer than this project's `lib`) finds lone surrogates.
  return !value.includes('\u0000') && (value as string & { isWellFormed(): boolean }).isWellFormed();
}

export interface InputProblem {
  /** Dotted path of the value at fault (`settings.theme`, `query.search`), or the prefix alone for the root. */
  field: string;
  message: string;
}

/** Buffers, dates and streams are not parsed client text (query objects have a null-prototype parent, so no prototype test). */
const isOpaque = (value: object) => ArrayBuffer.isView(value) || value instanceof Date || typeof (value as { pipe?: unknown }).pipe === 'function';

const joinPath = (base: string, key: string | number) => (base ? `${base}.${key}` : String(key));

/**
 * The first value PostgreSQL would refuse or nesting deeper than `maxDepth` (when given), walking
 * without recursion. Keys are checked like values (jsonb stores them too).
 */
export function findInputProblem(value: unknown, prefix: string, maxDepth?: number): InputProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  const name = (path: string) => (prefix ? (path ? `${prefix}.${path}` : prefix) : path || 'body');
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: current, path, depth } = item;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return { field: name(path), message: TEXT_PROBLEM };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (maxDepth !== undefined && depth >= maxDepth) {
      return { field: name(path.split('.')[0] ?? ''), message: `is nested deeper than ${maxDepth} levels` };
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: joinPath(path, i), depth: depth + 1 });
      continue;
    }
    if (isOpaque(current)) continue;
    const keys = Object.keys(current);
    for (const key of [...keys].reverse()) {
      if (!isStorableText(key)) return { field: name(path), message: `has a key that ${TEXT_PROBLEM}` };
      stack.push({ value: (current as Record<string, unknown>)[key], path: joinPath(path, key), depth: depth + 1 });
    }
  }
  return undefined;
}

const toError = (problem: InputProblem) => new AppError('validation', `Invalid ${problem.field}: ${problem.message}`, { field: problem.field });

/** Throw a 400 naming the field when any value (e.g. multipart text fields) holds text PostgreSQL refuses. */
export function assertStorableFields(fields: Record<string, unknown>, prefix = ''): void {
  const problem = findInputProblem(fields, prefix);
  if (problem) throw toError(problem);
}

/** JSON.parse for JSON carried in a text field (multipart `options`): depth and text checked, 400 naming `field`. */
export function parseJsonField(text: string, field: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('validation', `Invalid ${field}: not valid JSON`, { field });
  }
  const problem = findInputProblem(parsed, field, MAX_JSON_DEPTH);
  if (problem) throw toError(problem);
  return parsed;
}

// ---- coerced numbers in the query ----

interface ZodLike {
  _zod?: { def?: { type?: string; coerce?: boolean; innerType?: ZodLike; shape?: Record<string, ZodLike>; in?: ZodLike } };
}

const WRAPPERS = new Set(['default', 'optional', 'nullable', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The query keys whose schema is z.coerce.number() (through default/optional wrappers). */
function coercedNumberKeys(schema: unknown): string[] {
  const shape = (schema as ZodLike | undefined)?._zod?.def?.shape;
  if (!shape) return [];
  const keys: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    let def = field?._zod?.def;
    for (let i = 0; i < 8 && def && WRAPPERS.has(def.type ?? ''); i++) def = def.innerType?._zod?.def;
    if (def?.type === 'number' && def.coerce) keys.push(key);
  }
  return keys;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const numberKeysBySchema = new WeakMap<object, string[]>();

function checkQueryNumbers(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.querystring;
  if (!schema || typeof schema !== 'object') return;
  let keys = numberKeysBySchema.get(schema);
  if (!keys) {
    keys = coercedNumberKeys(schema);
    numberKeysBySchema.set(schema, keys);
  }
  const query = request.query as Record<string, unknown> | undefined;
  for (const key of keys) {
    const value = query?.[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !DECIMAL.test(value)) {
      throw new AppError('validation', `Invalid query.${key}: must be a number written in decimal digits`, { field: `query.${key}` });
    }
  }
}

/** Check body, query and path parameters of every route before its schema runs. */
export function registerInputGuards(app: FastifyInstance): void {
  // Callback style (runs on every request; no promise per call).
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      const problem =
        findInputProblem(request.params, 'params') ?? findInputProblem(request.query, 'query') ?? findInputProblem(request.body, '');
      if (problem) throw toError(problem);
      checkQueryNumbers(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });
}

/**
 * A body sent to a route that takes none (no zod body, no request body in its routeMedia) is refused with
 * 400 naming `body`, as its OpenAPI document says: nothing is silently ignored. An empty body, an empty
 * JSON object and an empty string count as none (clients that always send `{}` keep working).
 */
export function registerBodylessRefusal(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body as unknown;
    if (body === undefined || body === null || body === '') return done();
    if (typeof body === 'object' && !Array.isArray(body) && Object.getPrototypeOf(body) === Object.prototype && Object.keys(body).length === 0) return done();
    const schema = request.routeOptions.schema as { body?: unknown; 'x-route-media'?: { requestBody?: unknown } } | undefined;
    if (schema?.body !== undefined || schema?.['x-route-media']?.requestBody !== undefined) return done();
    done(new AppError('validation', 'Invalid body: this route takes no request body', { field: 'body' }));
  });
}

/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), then the depth limit, so no route
 * ever stringifies or recurses into a hostile structure.
 */
export function registerJsonDepthLimit(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const tooDeep = findDepthProblem(value, maxDepth);
      if (tooDeep) return done(toError(tooDeep), undefined);
      done(null, value);
    });
  });
}

/** Depth only (the text rule runs in preValidation with the field's full path). */
function findDepthProblem(value: unknown, maxDepth: number): InputProblem | undefined {
  const stack: { value: unknown; top: string; depth: number }[] = [{ value, top: '', depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: current, top, depth } = item;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return { field: top || 'body', message: `is nested deeper than ${maxDepth} levels` };
    if (Array.isArray(current)) {
      for (const item of current) stack.push({ value: item, top: top || 'body', depth: depth + 1 });
    } else {
      for (const [key, item] of Object.entries(current)) stack.push({ value: item, top: top || key, depth: depth + 1 });
    }
  }
  return undefined;
}
