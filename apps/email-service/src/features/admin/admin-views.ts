// Shared shapes of the admin API answers of points 5-7 (spec 001 leaves their fields open): rows are
// returned with snake_case keys, like every other email-service answer, and dates as ISO strings.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { callerOf } from '@story/auth';

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A database row (camelCase columns) as an answer record: snake_case keys, ISO dates. */
export function rowView(row: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [snake(k), v instanceof Date ? v.toISOString() : v]));
}

/** A validated snake_case body as column values (undefined keys dropped, so a partial update stays partial). */
export function columnsOf(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).map(([k, v]) => [camel(k), v]));
}

/** Who made a change, for the audit row. */
export function actorOf(req: FastifyRequest): { actorId: string; requestId: string } {
  return { actorId: callerOf(req).userId, requestId: req.id };
}

/** A record of the admin API: open shape, documented per route by its summary. */
export const recordSchema = z.record(z.string(), z.unknown());
export const idParams = z.object({ id: z.uuid() });
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
};
export const security = [{ bearerAuth: [] }];
