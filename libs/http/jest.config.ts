export default {
  displayName: 'http',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
