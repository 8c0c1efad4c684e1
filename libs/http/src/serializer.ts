// Response serialization: the route's zod schema, converted once to JSON Schema, compiled with
// fast-json-stringify (Fastify's own serializer). Output keeps only the declared fields, like the zod
// serializer, without re-validating every response (that cost a fifth of a 20-item list request).
// Schemas with no JSON Schema form (transforms, custom types) fall back to the zod serializer. Each
// route's serializer is compiled on its first answer.
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const fastSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (routeSchema) => {
  // Compiled on the route's first answer, not at start: a service declares ~150 response schemas and
  // compiling them all cost its start about a sixth of a second, for routes a process may never serve.
  let serialize: ((data: unknown) => string) | undefined;
  return (data: unknown) => (serialize ??= compile(routeSchema))(data);
};

function compile(routeSchema: Parameters<FastifySerializerCompiler<z.ZodType>>[0]): (data: unknown) => string {
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = z.toJSONSchema(routeSchema.schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as Record<string, unknown>;
  } catch {
    return zodSerializerCompiler(routeSchema) as (data: unknown) => string;
  }
  delete jsonSchema['$schema'];
  return fastJson(jsonSchema as unknown as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}
