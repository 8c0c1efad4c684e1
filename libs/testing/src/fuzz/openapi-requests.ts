// Requests derived from a service's OpenAPI document: for every operation, an arbitrary (fast-check) of
// requests that are mostly well-formed with one thing wrong, so each one reaches past the first check and
// probes the next: a hostile value in one field, a missing or extra field, a bad id, a bad token.
import fc from 'fast-check';
import { hostileSegment, hostileValue } from './hostile-values';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface FuzzOperation {
  method: string;
  /** OpenAPI path, e.g. /api/stories/{storyId}. */
  path: string;
  operationId: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: JsonSchema;
  /** Statuses the document declares (502/503 are accepted only where declared). */
  statuses: string[];
  /** A page (declares text/html answers): its errors are pages too. */
  html: boolean;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was wrong with it, for the failure report. */
  note: string;
}

/** The identities requests are sent as: a name and its headers ({} for anonymous). */
export type Actors = Record<string, Record<string, string>>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export function fuzzOperations(doc: { paths?: Record<string, Record<string, unknown>> }): FuzzOperation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, raw]) => {
        const op = raw as { operationId?: string; parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; responses?: Record<string, unknown> };
        const params = op.parameters ?? [];
        return {
          method: method.toUpperCase(),
          path,
          operationId: op.operationId ?? `${method} ${path}`,
          pathParams: params.filter((p) => p.in === 'path'),
          queryParams: params.filter((p) => p.in === 'query'),
          body: op.requestBody?.content?.['application/json']?.schema,
          // The answers every route may give (components/responses, e.g. 503 for a database outage) are left
          // out: a route the fuzzer drives to them answered something its own declaration does not cover.
          statuses: Object.entries(op.responses ?? {})
            .filter(([, r]) => !String((r as { $ref?: string }).$ref ?? '').startsWith('#/components/responses/'))
            .map(([status]) => status),
          html: JSON.stringify(op.responses ?? {}).includes('text/html'),
        };
      }),
  );
}

/** A value the schema accepts (roughly: patterns are not honoured), drawing ids from `ids`. */
function validValue(schema: JsonSchema | undefined, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validValue(s, ids, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return ids.length ? fc.oneof(fc.constantFrom(...ids), fc.uuid()) : fc.uuid();
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'uri') return fc.webUrl();
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40)) });
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? -1000), max: Math.floor(Math.min(schema.maximum ?? 1000, 2 ** 31 - 1)) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items, ids, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(props).map(([k, s]) => [k, required.has(k) ? validValue(s, ids, depth + 1) : fc.option(validValue(s, ids, depth + 1), { nil: undefined })] as const);
      return fc.record(Object.fromEntries(entries)).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A body with one thing wrong (or, now and then, nothing wrong, or not JSON at all). */
function bodyArbitrary(schema: JsonSchema | undefined, ids: string[]): fc.Arbitrary<{ payload?: string; contentType?: string; note: string }> {
  const json = (value: unknown, note: string) => ({ payload: JSON.stringify(value), contentType: 'application/json', note });
  const base = validValue(schema ?? { type: 'object' }, ids) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(schema?.properties ?? {});
  return fc.oneof(
    base.map((b) => json(b, 'well-formed body')),
    ...(keys.length
      ? [
          fc.tuple(base, fc.constantFrom(...keys), hostileValue).map(([b, k, v]) => json({ ...(typeof b === 'object' && b ? b : {}), [k]: v }, `hostile ${k}`)),
          fc.tuple(base, fc.constantFrom(...keys)).map(([b, k]) => {
            const copy = { ...(typeof b === 'object' && b ? b : {}) };
            delete copy[k];
            return json(copy, `missing ${k}`);
          }),
        ]
      : []),
    fc.tuple(base, fc.constantFrom('__proto__', 'constructor', 'isAdmin', 'role', 'user_id', 'id', 'x'.repeat(300)), hostileValue).map(([b, k, v]) => ({
      payload: JSON.stringify({ ...(typeof b === 'object' && b ? b : {}) }).replace(/^\{/, `{${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'},`).replace(/,\}$/, '}'),
      contentType: 'application/json',
      note: `extra field ${k.slice(0, 20)}`,
    })),
    hostileValue.map((v) => json(v, 'hostile whole body')),
    fc.constantFrom('{', '{"a":', 'not json', '\u0000', '[1,2', '{"a":1}{"b":2}', '').map((p) => ({ payload: p, contentType: 'application/json', note: 'broken JSON' })),
    base.map((b) => ({ payload: JSON.stringify(b), contentType: 'text/plain', note: 'wrong content type' })),
    fc.constant({ note: 'no body' }),
  );
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Percent-encode a path segment; a lone surrogate becomes the bytes of one (invalid UTF-8), as a raw client could send. */
const encodeSegment = (s: string) => encodeURIComponent(s.replace(LONE_SURROGATE, '\u0001')).replace(/%01/g, '%ED%A0%80');

function segmentArbitrary(ids: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: ids.length ? fc.constantFrom(...ids) : fc.uuid() }, { weight: 1, arbitrary: fc.uuid() }, { weight: 2, arbitrary: hostileSegment });
}

/** Requests for one operation, sent as one of `actors`, with ids drawn from `ids`. */
export function requestArbitrary(op: FuzzOperation, actors: Actors, ids: string[]): fc.Arbitrary<FuzzRequest> {
  const pathArb = fc.tuple(...op.pathParams.map(() => segmentArbitrary(ids))).map((values) => {
    let url = op.path;
    op.pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, encodeSegment(values[i] ?? ''))));
    return url;
  });
  const queryArb = fc
    .tuple(
      ...op.queryParams.map((p) =>
        fc.oneof(
          { weight: 3, arbitrary: validValue(p.schema, ids).map((v) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v))) },
          { weight: 1, arbitrary: hostileSegment },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
      ),
    )
    .map((values) => {
      const q = new URLSearchParams();
      op.queryParams.forEach((p, i) => values[i] !== undefined && q.append(p.name, String(values[i])));
      return q.toString();
    });
  const names = Object.keys(actors);
  const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) ? bodyArbitrary(op.body, ids) : fc.constant({ note: 'no body' } as { payload?: string; contentType?: string; note: string });
  return fc.tuple(pathArb, queryArb, body, fc.constantFrom(...names)).map(([path, query, b, actor]) => ({
    method: op.method,
    url: query ? `${path}?${query}` : path,
    headers: { ...actors[actor], ...(b.contentType ? { 'content-type': b.contentType } : {}) },
    ...(b.payload !== undefined ? { payload: b.payload } : {}),
    note: `as ${actor}; ${b.note}`,
  }));
}
