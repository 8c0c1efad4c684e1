export default {
  displayName: 'email-service',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
