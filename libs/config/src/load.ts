// Parsing with one clear line per bad variable, so a misconfigured service stops at start saying which.
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration: ${issues.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose value is never repeated in an error: private keys. */
const NEVER_ECHOED = new Set(['DKIM_PRIVATE_KEY', 'OAUTH_APPLE_PRIVATE_KEY']);

/** The value as an error may show it: a URL's password replaced by ***. */
function echo(value: string): string {
  return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i, '$1***@'));
}

/** Parse `env` with `schema`; throws ConfigError naming each variable and what is wrong. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const variable = String(issue.path[0]);
    const received = env[variable];
    return received === undefined || NEVER_ECHOED.has(variable) ? `${name}: ${issue.message}` : `${name}=${echo(received)}: ${issue.message}`;
  });
  throw new ConfigError(issues);
}

/** For main.ts: print the one-line error and exit non-zero instead of a stack trace. */
export function loadOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
