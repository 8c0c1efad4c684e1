// The API surface, reviewed like code: each service's OpenAPI document is written to
// docs/openapi/<service>.json (`npm run openapi:write`) and committed, and CI runs `npm run openapi:check`,
// which fails when the code's documents and the committed files differ, so every change to the API shows
// in review as a diff of these files (immich commits its open-api spec the same way).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serviceDocuments } from './lint-openapi';

const DIR = path.resolve(__dirname, '..', 'docs', 'openapi');

const render = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== '--write' && mode !== '--check') {
    process.stderr.write('usage: openapi-docs --write | --check\n');
    process.exit(2);
  }
  mkdirSync(DIR, { recursive: true });
  const stale: string[] = [];
  for (const { service, document } of await serviceDocuments()) {
    const file = path.join(DIR, `${service}.json`);
    const text = render(document);
    if (mode === '--write') {
      writeFileSync(file, text);
      process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
      continue;
    }
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing: reported below
    }
    if (committed !== text) stale.push(service);
  }
  if (stale.length) {
    process.stderr.write(
      `The API differs from docs/openapi for ${stale.join(', ')}: run \`npm run openapi:write\` and commit the result, so the change shows in review.\n`,
    );
    process.exit(1);
  }
  if (mode === '--check') process.stdout.write('docs/openapi matches the three services\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`openapi-docs failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
