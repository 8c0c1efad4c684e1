export default {
  displayName: 'tools-api',
  preset: '../../jest.preset.js',
  rootDir: '.',
  // meilisearch ships ESM only: SWC turns it into CommonJS for Jest (the bundle loads it with import()).
  transformIgnorePatterns: ['/node_modules/(?!meilisearch/)'],
};
