export default {
  displayName: 'email',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
