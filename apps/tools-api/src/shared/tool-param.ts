// The {tool} path segment: one of the sixteen route names of TOOL_ROUTES; anything else is 404 TOOL_NOT_FOUND
// (not a 400: an unknown tool is a missing resource, like an unknown path).
import { getTableName } from 'drizzle-orm';
import { z } from 'zod';
import { TOOL_ROUTES, TOOL_TABLES, type ToolContentTable, type ToolRoute } from '@story/db';
import { toolsError } from './errors';

export const toolParam = z.enum(TOOL_ROUTES);

/** Path parameter schema for routes under /api/:tool: a string checked by parseTool (so the answer is 404, not 400). */
export const toolPathParam = z.string().min(1).max(64);

const KNOWN = new Set<string>(TOOL_ROUTES);

export const isToolRoute = (value: string): value is ToolRoute => KNOWN.has(value);

/** The tool named by the path, or 404 TOOL_NOT_FOUND. */
export function parseTool(value: string): ToolRoute {
  if (!isToolRoute(value)) throw toolsError.toolNotFound(value);
  return value;
}

export function toolTableOf(tool: ToolRoute): ToolContentTable {
  return TOOL_TABLES[tool];
}

/** The SQL table name of a tool's content table (for raw postgres.js queries; fixed names from libs/db, never user input). */
export function toolTableName(tool: ToolRoute): string {
  return getTableName(TOOL_TABLES[tool]);
}
