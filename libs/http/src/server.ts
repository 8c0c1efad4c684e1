// The Fastify instance every service starts from: zod type provider, request ids, pino with secrets
// redacted, body limits. Features are registered on it by each app's buildApp.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, type FastifyRequest, type FastifyInstance, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino, { type DestinationStream } from 'pino';
import { scrubLogValue, serializeRequest } from './log-serializer';
import { fastSerializerCompiler } from './serializer';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    serviceName: string;
  }
}

export interface ServerOptions {
  name: string;
  logLevel?: string;
  /** Largest JSON body in bytes (413 above it). */
  bodyLimit?: number;
  /**
   * TRUST_PROXY (CONTRACTS §1): false, a hop count, or the proxies' addresses/CIDRs. Only then does
   * request.ip (rate limits, stored addresses) come from X-Forwarded-For.
   */
  trustProxy?: boolean | number | string[];
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logStream?: DestinationStream;
  /** Errors Fastify raises before routing (a bad URL, an over-long path segment), answered in the service's shape. */
  frameworkErrors?: FastifyServerOptions['frameworkErrors'];
}

/** A hop count becomes proxy-addr's own rule (trust the nearest n hops); Fastify's types lack the number form. */
function fastifyTrustProxy(setting: ServerOptions['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') {
    const hops = setting;
    return hops > 0 ? (_address: string, hop: number) => hop < hops : false;
  }
  return setting ?? false;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createServer(options: ServerOptions): App {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      base: { service: options.name },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'], censor: '[redacted]' },
      // One request serializer for all three services: no token, session id or invitation link in a URL.
      // Errors and every line's own fields go out with email addresses masked (log-serializer.ts).
      serializers: { req: (request: FastifyRequest) => serializeRequest(request), err: (err: Error) => scrubLogValue({ ...pino.stdSerializers.err(err) }) as ReturnType<typeof pino.stdSerializers.err> },
      hooks: {
        logMethod(args, method) {
          return method.apply(this, args.map((arg) => scrubLogValue(arg)) as Parameters<typeof method>);
        },
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: fastifyTrustProxy(options.trustProxy),
    // Reuse a caller's X-Request-ID for tracing when it is well-formed; otherwise make one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Idle keep-alive sockets close at shutdown; in-flight requests are allowed to finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: undefined,
    ...(options.frameworkErrors ? { frameworkErrors: options.frameworkErrors } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(fastSerializerCompiler);
  app.decorate('serviceName', options.name);
  // Per-request hooks in callback style: an async hook costs a promise and a microtask on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-ID', request.id);
    done();
  });
  // A response finished during shutdown closes its keep-alive socket, so close() does not wait on
  // clients that would otherwise hold idle connections open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  return app;
}
