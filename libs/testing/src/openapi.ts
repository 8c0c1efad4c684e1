// The "every route has an operationId and declared responses" check, shared by the three services' app
// tests (CONTRACTS §1): feed it the served /openapi.json and expect no problems.

interface OpenApiOperation {
  operationId?: unknown;
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | unknown>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the document as `METHOD path` with its operationId and declared status codes. */
export function openApiOperations(doc: OpenApiDocument): { route: string; operationId: string | undefined; statuses: string[] }[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => {
        const o = op as OpenApiOperation;
        return { route: `${method.toUpperCase()} ${path}`, operationId: typeof o.operationId === 'string' ? o.operationId : undefined, statuses: Object.keys(o.responses ?? {}) };
      }),
  );
}

/**
 * What keeps the document from being complete: a route without an operationId, an operationId used twice,
 * a route without a declared success answer (2xx or 3xx) or without any declared error answer (4xx or 5xx).
 * Empty when every route is documented.
 */
export function openApiProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const op of openApiOperations(doc)) {
    if (!op.operationId) problems.push(`${op.route}: no operationId`);
    else if (seen.has(op.operationId)) problems.push(`${op.route}: operationId ${op.operationId} also used by ${seen.get(op.operationId)}`);
    else seen.set(op.operationId, op.route);
    if (!op.statuses.some((s) => /^[23]/.test(s))) problems.push(`${op.route}: no success response declared`);
    if (!op.statuses.some((s) => /^[45]/.test(s))) problems.push(`${op.route}: no error response declared`);
  }
  return problems;
}
