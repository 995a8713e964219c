/**
 * GitHub in the platform list: its name and what it can do, whether it is on or not. Its
 * module (`module.ts`, and the libraries it uses) is loaded only when the configuration turns
 * it on.
 */
import { definePlatform } from '../platform/contract.js';

export const githubPlatform = definePlatform({
  name: 'github',
  capabilities: {
    buttons: true,
    ephemeral: false,
    editsInPlace: true,
    agentSessions: false,
    checkRuns: true,
    install: false,
    sessionKeepAlive: false,
    stopAnswerFinal: false,
  },
  isOn: (config) => config.github !== undefined,
  load: async () => (await import('./module.js')).createGitHub,
});
