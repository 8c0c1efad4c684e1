// OpenAPI 3 generated from the zod route schemas, served at /openapi.json with a browsable /docs page.
// The zod schemas describe JSON; what they cannot say (a binary or HTML answer, a multipart or raw request
// body, response headers) a route declares with `routeMedia(...)` in its schema, and `applyRouteMedia`
// writes it into the document, so a client generated from it, or a validator reading it, meets the real
// media types (CONTRACTS §1: every service serves its OpenAPI 3 document).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** Security scheme for Bearer tokens (all three services accept core-api's access tokens). */
  bearer?: boolean;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type JsonSchema = Record<string, unknown>;

/** A header of an answer, as OpenAPI writes it. */
export interface HeaderDoc {
  description: string;
  schema: JsonSchema;
}

/** A non-JSON answer: its media types (one schema for all), or null for an answer without a body. */
export interface MediaAnswer {
  types: readonly string[];
  description?: string;
  /** Default: an object for JSON types, a string for text/*, bytes otherwise; text: a string; or a JSON schema. */
  schema?: 'binary' | 'text' | JsonSchema;
}

/** What a route's zod schemas cannot say, declared beside them (`routeMedia`). */
export interface RouteMedia {
  /** Answers by status whose body is not the route's JSON schema; null = no body (a redirect). */
  answers?: Record<number, MediaAnswer | null>;
  /** Response headers by status (Retry-After, Location, Content-Range, ...). */
  headers?: Record<number, Record<string, HeaderDoc>>;
  /** A request body the zod `body` does not describe (multipart, raw bytes, a webhook's signed JSON). */
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: JsonSchema; encoding?: Record<string, { contentType: string; allowReserved?: boolean }> }> };
}

declare module 'fastify' {
  interface FastifySchema {
    /** Media types, request bodies and headers beyond the zod schemas (libs/http openapi.ts). */
    'x-route-media'?: RouteMedia;
  }
}

const MEDIA_KEY = 'x-route-media';
const OPTIONAL_BODY_KEY = 'x-body-optional';

/** Spread into a route's schema: `schema: { ..., ...routeMedia({ answers: { 200: { types: ['application/pdf'] } } }) }`. */
export function routeMedia(media: RouteMedia): { 'x-route-media': RouteMedia } {
  return { [MEDIA_KEY]: media } as { 'x-route-media': RouteMedia };
}

const BINARY = { type: 'string', format: 'binary' } as const;

/** The stored-media answers every Range-capable file route gives: 200 whole, 206 a range, with their headers. */
export function rangedMedia(types: readonly string[], what: string): RouteMedia {
  const common = {
    'Accept-Ranges': { description: 'bytes: the file answers Range requests', schema: { type: 'string' } },
    'Content-Length': { description: 'Bytes in this answer', schema: { type: 'integer' } },
  };
  return {
    answers: { 200: { types, description: `${what}, whole` }, 206: { types, description: `The requested byte range of ${what.toLowerCase()}` } },
    headers: {
      200: common,
      206: { ...common, 'Content-Range': { description: 'bytes start-end/size', schema: { type: 'string' } } },
    },
  };
}

export interface MultipartFilePart {
  /** Field names accepted for the file (the first is the documented one; the others are aliases). */
  names: readonly string[];
  /** Media types accepted, e.g. audio/*, video/*. */
  types: readonly string[];
  maxBytes: number;
  description: string;
}

/**
 * A multipart/form-data request body: one file part (required unless `fileOptional`) and the text fields of
 * a zod object (each a string part). The size limit is in the schema (maxLength of the binary part, bytes)
 * and the description; larger files are refused with 413.
 */
export function multipartBody(input: { file: MultipartFilePart; fields?: z.ZodObject; description?: string; fileOptional?: boolean }): NonNullable<RouteMedia['requestBody']> {
  const { file } = input;
  const fields = input.fields ? (z.toJSONSchema(input.fields, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonSchema) : { properties: {}, required: [] };
  const fileSchema = { ...BINARY, maxLength: file.maxBytes, description: `${file.description} (${file.types.join(', ')}; at most ${file.maxBytes} bytes, else 413)` };
  const properties: Record<string, unknown> = { ...(fields['properties'] as Record<string, unknown>) };
  for (const [i, name] of file.names.entries()) properties[name] = i === 0 ? fileSchema : { ...fileSchema, description: `Another name for ${file.names[0]}` };
  const textRequired = (fields['required'] as string[] | undefined) ?? [];
  const schema: JsonSchema = { type: 'object', properties };
  if (textRequired.length) schema['required'] = textRequired;
  if (!input.fileOptional) {
    if (file.names.length === 1) schema['required'] = [...textRequired, file.names[0]];
    else schema['anyOf'] = file.names.map((name) => ({ required: [name] }));
  }
  return {
    required: true,
    ...(input.description ? { description: input.description } : {}),
    // allowReserved is ignored for multipart by OpenAPI 3.0 (it concerns urlencoded bodies); Prism applies it
    // to multipart parts too and would call any file holding a '/' or '=' invalid without it.
    content: { 'multipart/form-data': { schema, encoding: Object.fromEntries(file.names.map((n) => [n, { contentType: file.types.join(', '), allowReserved: true }])) } },
  };
}

/**
 * Paths as the spec writes them, for a generator that trusts the document: a '/' route under a prefix
 * (which answers with and without the slash) is listed as `/api/campaigns`; a wildcard is named `{key}`
 * rather than `{*}`; every operation carries a security declaration (routes that declare none are
 * public: `security: []`; authenticated ones declare the bearer scheme beside their schema). Other
 * routes ending in '/' keep it: they are HTML pages whose canonical URL has the slash (spec 002 "Public
 * page routes follow /{tool}/"), and without it they would not answer. A zod body that accepts nothing
 * (optional or nullish) is marked so the document does not call it required.
 */
export function specPathTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const result = jsonSchemaTransform(input);
  const prefix = (input.route as { prefix?: string }).prefix ?? '';
  let url = result.url;
  if (prefix && url === `${prefix}/`) url = prefix;
  url = url.replace(/\/\*$/, '/:key');
  let schema = result.schema as Record<string, unknown>;
  if (schema['security'] === undefined) schema = { ...schema, security: [] };
  const body = (input.schema as { body?: unknown } | undefined)?.body;
  if (body instanceof z.ZodType && body.safeParse(undefined).success) schema = { ...schema, [OPTIONAL_BODY_KEY]: true };
  return { schema, url } as ReturnType<typeof jsonSchemaTransform>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/**
 * Answers any route can give besides its own: the framework's and the error handler's (CONTRACTS §3),
 * declared once under components.responses and referenced by every operation that does not declare them.
 */
const GENERIC_ANSWERS: Record<string, { name: string; description: string; when: (op: Operation) => boolean }> = {
  '400': { name: 'BadRequest', description: 'Malformed request (URL, query, JSON, multipart) or a field that fails validation, named in the error', when: () => true },
  '413': { name: 'PayloadTooLarge', description: 'Request body over the route’s size limit', when: (op) => op.requestBody !== undefined },
  '415': { name: 'UnsupportedMediaType', description: 'Content-Type the route does not take, or a body sent to a route that takes none', when: () => true },
  '500': { name: 'InternalError', description: 'Unexpected failure (logged with the request id; no detail in the answer)', when: () => true },
  '503': { name: 'Unavailable', description: 'The database or another dependency is briefly unavailable; Retry-After says when to try again', when: () => true },
};

interface OpenApiObject {
  paths?: Record<string, Record<string, unknown>>;
  components?: { responses?: Record<string, unknown>; [key: string]: unknown };
}

interface Operation {
  requestBody?: { required?: boolean; content?: Record<string, unknown>; description?: string };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown>; $ref?: string }>;
  [MEDIA_KEY]?: RouteMedia;
  [OPTIONAL_BODY_KEY]?: boolean;
}

const isJsonType = (type: string) => /^application\/(.+\+)?json\b/.test(type);

/** The JSON body of a client-error answer of the operation: the service's error shape (CONTRACTS §3). */
function jsonErrorContent(op: Operation): Record<string, { schema?: unknown }> | undefined {
  for (const [status, answer] of Object.entries(op.responses ?? {})) {
    // 4xx only: a 5xx may have its own shape (GET /health's 503 is the health report).
    if (!/^4/.test(status)) continue;
    const json = Object.entries(answer.content ?? {}).find(([type]) => isJsonType(type));
    if (json) return { [json[0]]: json[1] };
  }
  return undefined;
}

/** The schema of one media type of an answer: JSON is an object, text/* a string, the rest bytes, unless given. */
function mediaSchema(type: string, answer: MediaAnswer): JsonSchema {
  if (typeof answer.schema === 'object') return answer.schema;
  if (answer.schema === 'text') return { type: 'string' };
  if (isJsonType(type)) return { type: 'object' };
  if (type.startsWith('text/')) return { type: 'string' };
  return { ...BINARY };
}

/**
 * transformObject of @fastify/swagger: each operation's `x-route-media` written into its answers and request
 * body, optional bodies marked not required, error answers kept JSON, and the answers every route can give
 * (GENERIC_ANSWERS) declared where the route did not.
 */
export function applyRouteMedia<T extends OpenApiObject>(document: T): T {
  const docError = Object.values(document.paths ?? {})
    .flatMap((item) => METHODS.map((m) => item[m] as Operation | undefined))
    .map((op) => (op ? jsonErrorContent(op) : undefined))
    .find(Boolean);
  const components = (document.components ??= {});
  const shared = (components.responses ??= {});
  for (const generic of Object.values(GENERIC_ANSWERS)) shared[generic.name] = { description: generic.description, ...(docError ? { content: docError } : {}) };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      const media = op[MEDIA_KEY];
      delete op[MEDIA_KEY];
      const responses = (op.responses ??= {});
      if (media?.requestBody) op.requestBody = media.requestBody;
      if (op[OPTIONAL_BODY_KEY] && op.requestBody) op.requestBody.required = false;
      delete op[OPTIONAL_BODY_KEY];
      for (const [status, answer] of Object.entries(media?.answers ?? {})) {
        const entry = (responses[status] ??= { description: answer?.description ?? 'Default Response' });
        if (answer?.description) entry.description = answer.description;
        if (answer === null) delete entry.content;
        else entry.content = Object.fromEntries(answer.types.map((type) => [type, { schema: mediaSchema(type, answer) }]));
      }
      for (const [status, headers] of Object.entries(media?.headers ?? {})) {
        const entry = responses[status];
        if (entry) entry.headers = { ...entry.headers, ...headers };
      }
      const errorContent = jsonErrorContent(op) ?? docError;
      for (const [status, generic] of Object.entries(GENERIC_ANSWERS)) {
        if (responses[status] || !generic.when(op)) continue;
        responses[status] = { $ref: `#/components/responses/${generic.name}` };
      }
      // An error answer whose content was declared as a file type (a `produces` on the route) is JSON.
      for (const [status, entry] of Object.entries(responses)) {
        if (!/^[45]/.test(status) || !entry.content || !errorContent) continue;
        if (!Object.keys(entry.content).some(isJsonType) && !media?.answers?.[Number(status)]) entry.content = errorContent;
      }
      // A stable order: statuses ascending.
      op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return document;
}

/**
 * The /docs page's CSP: Swagger UI sets inline style attributes as it renders, so style-src allows them
 * (a hash list would switch 'unsafe-inline' off); scripts stay 'self' only, and nothing loads from elsewhere
 * (no validator badge, no upgrade of a plain-HTTP local server's own requests).
 */
export const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; object-src 'none'; frame-ancestors 'self'; form-action 'self'; img-src 'self' data:; font-src 'self' data:; " +
  "script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; connect-src 'self'";

export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: info.title, version: info.version, description: info.description },
      // Relative to where the document is served: each service documents itself.
      servers: [{ url: '/', description: info.title }],
      components: info.bearer ? { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } } : {},
    },
    transform: specPathTransform,
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      return applyRouteMedia(documentObject.openapiObject as OpenApiObject) as typeof documentObject.openapiObject;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    theme: { title: `${info.title}: API reference` },
    uiConfig: { deepLinking: true, validatorUrl: null },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
