export { createConsole } from './console-app.js';
export type { ConsoleDeps, OperatorConsole } from './console-app.js';
export { githubWebUrlOf } from './places.js';
