// Bundle the three services with esbuild straight from the TypeScript sources (the @story/* libs are
// resolved through tsconfig paths, npm packages stay external), as `npm start` runs them. One esbuild
// call builds all three in well under a second, so no build cache and no prior tsc build of the libs is
// needed; `npm run build` (Nx, for the Docker images) is unchanged.
import path from 'node:path';
import { build } from 'esbuild';

export const SERVICE_NAMES = ['core-api', 'email-service', 'tools-api'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const ROOT = path.resolve(__dirname, '..');

/**
 * V8 flags every service runs with (npm start, the Docker image, the benches). A 32 MB young generation:
 * streamed uploads and media downloads allocate a 64 KB Buffer per chunk, and with the default the
 * scavenges cost more CPU than the streaming itself (measured: an 8 MiB upload 120 -> 50 ms of CPU,
 * a 200 MiB ranged GET 660 -> 310 ms).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

/** Write dist/apps/<name>/main.cjs (+ source map) for each service; returns the bundle paths by name. */
export async function bundleServices(names: readonly ServiceName[] = SERVICE_NAMES, outRoot = path.join(ROOT, 'dist', 'apps')): Promise<Record<ServiceName, string>> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: names.map((name) => ({ in: `apps/${name}/src/main.ts`, out: `${name}/main` })),
    outdir: outRoot,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // npm packages load from node_modules at run time; only the project's own code is bundled.
    packages: 'external',
    tsconfig: path.join(ROOT, 'tsconfig.base.json'),
    sourcemap: true,
    logLevel: 'warning',
  });
  if (names.includes('email-service')) await bundleDashboardAssets(path.join(outRoot, 'email-service', 'dashboard-assets'));
  return Object.fromEntries(names.map((name) => [name, path.join(outRoot, name, 'main.cjs')])) as Record<ServiceName, string>;
}

/**
 * The admin application's stylesheet and script (email-service /dashboard), minified beside the bundle, where
 * the dashboard looks for them first. No second toolchain: the same esbuild, one more call.
 */
export async function bundleDashboardAssets(outdir: string): Promise<void> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['apps/email-service/src/features/dashboard/assets/dashboard.css', 'apps/email-service/src/features/dashboard/assets/dashboard.js'],
    outdir,
    // Neither file imports anything: minified as they are (bundling would wrap the script as a CommonJS module).
    bundle: false,
    minify: true,
    // Browsers of the last few years; the script is plain ES2020 and the stylesheet plain CSS.
    target: ['chrome100', 'firefox100', 'safari15', 'edge100'],
    logLevel: 'warning',
  });
}

if (require.main === module) {
  const started = Date.now();
  bundleServices()
    .then((out) => process.stdout.write(`bundled ${Object.keys(out).join(', ')} in ${Date.now() - started} ms\n`))
    .catch((err: unknown) => {
      process.stderr.write(`bundle failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
