// `npm run test:fuzz`: the *.fuzz.ts files of the three services (CONTRACTS §3: bad input gets a 4xx, never a
// 500), on the same database set-up as the tests. FUZZ_RUNS sets the requests per route, FUZZ_SEED replays a
// run.
export default {
  projects: ['core-api', 'email-service', 'tools-api'].map((app) => ({
    displayName: `fuzz ${app}`,
    preset: '../../jest.preset.js',
    rootDir: `apps/${app}`,
    testMatch: ['**/*.fuzz.ts'],
  })),
};
