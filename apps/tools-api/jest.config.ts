export default {
  displayName: 'tools-api',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
