// The release version every service reports in /health and its OpenAPI document.
// eslint-disable-next-line @nx/enforce-module-boundaries -- the workspace version lives in the root package.json
import pkg from '../../../package.json';

export const VERSION: string = pkg.version;
