export default {
  displayName: 'jobs',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
