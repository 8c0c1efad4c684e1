export default {
  displayName: 'pdf',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
