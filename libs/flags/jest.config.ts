export default {
  displayName: 'flags',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
