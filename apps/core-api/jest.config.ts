export default {
  displayName: 'core-api',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
