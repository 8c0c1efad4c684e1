// Which routes of an OpenAPI document take an id: every operation with a path parameter, except those
// whose every path parameter is a closed vocabulary (a tool name, a provider, a reference collection),
// which names no one's resource. The vocabulary parameters are listed by each service's test with why, so
// a route that gains an id parameter, or a new route with one, needs a case before the test passes.

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Parameter {
  name: string;
  in: string;
  schema?: { enum?: unknown[] };
}

export interface IdRoute {
  /** `METHOD /path`. */
  route: string;
  /** The path parameters that name a resource. */
  idParams: string[];
}

/** Operations with at least one path parameter that is not in `vocabulary` (parameter name → why it is no id). */
export function idRoutes(doc: { paths?: Record<string, Record<string, unknown>> }, vocabulary: Record<string, string>): IdRoute[] {
  const out: IdRoute[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = ((raw as { parameters?: Parameter[] }).parameters ?? []).filter((p) => p.in === 'path');
      // An enum parameter is a vocabulary by construction.
      const ids = params.filter((p) => !(p.name in vocabulary) && !p.schema?.enum?.length).map((p) => p.name);
      if (ids.length) out.push({ route: `${method.toUpperCase()} ${path}`, idParams: ids });
    }
  }
  return out;
}

/** Id routes without a case, and cases naming a route the document does not have. */
export function matrixCoverage(routes: readonly IdRoute[], caseRoutes: readonly string[], documentRoutes: readonly string[]): { uncovered: string[]; unknown: string[] } {
  const covered = new Set(caseRoutes);
  const known = new Set(documentRoutes);
  return { uncovered: routes.map((r) => r.route).filter((r) => !covered.has(r)), unknown: [...covered].filter((r) => !known.has(r)) };
}

/** Every operation of the document as `METHOD /path`. */
export function documentRoutes(doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
}

/**
 * The id routes and all routes of several documents together (the committed docs/openapi/<service>.json
 * and the one the app serves now), so a route counts as soon as either has it.
 */
export function idRoutesOfAll(docs: readonly { paths?: Record<string, Record<string, unknown>> }[], vocabulary: Record<string, string>): { ids: IdRoute[]; all: string[] } {
  const ids = new Map<string, IdRoute>();
  for (const doc of docs) for (const r of idRoutes(doc, vocabulary)) ids.set(r.route, r);
  return { ids: [...ids.values()], all: [...new Set(docs.flatMap(documentRoutes))] };
}
