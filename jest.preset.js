// Shared Jest settings: SWC transform (fast, isolated modules), node environment
// (Nx's preset defaults to jsdom), and one real PostgreSQL server per Jest run.
const nxPreset = require('@nx/jest/preset').default;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  transform: {
    '^.+\\.[tj]s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // unicode-name (character names in refusals) is an ES module: SWC turns it into CommonJS like our code.
  transformIgnorePatterns: ['/node_modules/(?!unicode-name/)'],
  testMatch: ['**/*.test.ts'],
  globalSetup: require('node:path').join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: require('node:path').join(__dirname, 'libs/testing/src/global-teardown.ts'),
  testTimeout: 30000,
};
