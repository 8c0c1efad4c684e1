export default {
  displayName: 'providers',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
