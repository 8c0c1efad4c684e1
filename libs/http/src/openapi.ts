// OpenAPI 3 generated from the zod route schemas, served at /openapi.json with a browsable /docs page.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** Security scheme for Bearer tokens (all three services accept core-api's access tokens). */
  bearer?: boolean;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * Paths as the spec writes them, for a generator that trusts the document: a '/' route under a prefix
 * (which answers with and without the slash) is listed as `/api/campaigns`; a wildcard is named `{key}`
 * rather than `{*}`; every operation carries a security declaration (routes that declare none are
 * public: `security: []`; authenticated ones declare the bearer scheme beside their schema). Other
 * routes ending in '/' keep it: they are HTML pages whose canonical URL has the slash (spec 002 "Public
 * page routes follow /{tool}/"), and without it they would not answer.
 */
export function specPathTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const result = jsonSchemaTransform(input);
  const prefix = (input.route as { prefix?: string }).prefix ?? '';
  let url = result.url;
  if (prefix && url === `${prefix}/`) url = prefix;
  url = url.replace(/\/\*$/, '/:key');
  const schema = result.schema as Record<string, unknown>;
  return { schema: schema['security'] === undefined ? { ...schema, security: [] } : schema, url } as ReturnType<typeof jsonSchemaTransform>;
}

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
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
