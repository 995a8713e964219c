export { createConsole } from './console-app.js';
export type { ConsoleDeps, OperatorConsole } from './console-app.js';
export { localAdminUrl } from './local-admin.js';
export { githubWebUrlOf } from './places.js';
export { platformLookups } from './platform-lookups.js';
