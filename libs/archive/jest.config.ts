export default {
  displayName: 'archive',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
