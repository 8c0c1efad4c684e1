export default {
  displayName: 'tools-api',
  preset: '../../jest.preset.js',
  rootDir: '.',
  // meilisearch and unicode-name ship ESM only: SWC turns them into CommonJS for Jest (as in jest.preset.js).
  transformIgnorePatterns: ['/node_modules/(?!(meilisearch|unicode-name)/)'],
};
