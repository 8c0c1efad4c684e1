// Listen, then close gracefully on SIGINT/SIGTERM: stop accepting, let in-flight requests finish,
// run onClose hooks (workers, pools), and exit. A second signal or the deadline forces the exit.
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

export interface ListenOptions {
  host: string;
  port: number;
  /** Deadline for in-flight work before the process exits anyway. */
  graceMs?: number;
}

export async function listenWithGracefulShutdown(app: FastifyInstance, options: ListenOptions): Promise<string> {
  closeWithGrace({ delay: options.graceMs ?? 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  return app.listen({ host: options.host, port: options.port });
}
