export default {
  displayName: 'config',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
