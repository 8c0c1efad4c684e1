export default {
  displayName: 'testing',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
