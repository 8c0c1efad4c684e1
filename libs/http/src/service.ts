// The plumbing every service shares, in one call: error shape, security headers, CORS, rate limits,
// OpenAPI and /docs, auth decorators. Each app's buildApp calls it, then registers its features.
import type { ErrorRenderer } from './error-shapes';
import { frameworkErrorResponder, registerErrorHandling } from './error-handler';
import { registerBodylessRefusal, registerInputGuards, registerJsonDepthLimit } from './input-guards';
import { registerOpenApi, type OpenApiInfo } from './openapi';
import { registerRateLimit, type RateLimitHandle, type RateLimitSetup } from './limits';
import { registerCors, registerSecurityHeaders, type CorsPolicy } from './security';
import { createServer, type App, type ServerOptions } from './server';

export interface ServiceOptions {
  name: string;
  logLevel?: string;
  bodyLimit?: number;
  trustProxy?: ServerOptions['trustProxy'];
  logStream?: ServerOptions['logStream'];
  render: ErrorRenderer;
  cors: CorsPolicy;
  rateLimit: RateLimitSetup;
  openapi: OpenApiInfo;
}

export interface ServiceApp {
  app: App;
  rateLimit: RateLimitHandle;
}

export async function createServiceApp(options: ServiceOptions): Promise<ServiceApp> {
  const app = createServer({
    name: options.name,
    logLevel: options.logLevel,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    logStream: options.logStream,
    frameworkErrors: frameworkErrorResponder(options.render),
  });
  registerErrorHandling(app, { render: options.render });
  // Hostile input (NUL, lone surrogates, deep JSON, hex numbers) is refused for every route, before any feature sees it.
  registerJsonDepthLimit(app);
  registerInputGuards(app);
  registerBodylessRefusal(app);
  await registerSecurityHeaders(app);
  await registerCors(app, options.cors);
  const rateLimit = await registerRateLimit(app, options.rateLimit);
  await registerOpenApi(app, options.openapi);
  return { app, rateLimit };
}
