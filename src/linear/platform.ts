/**
 * Linear in the platform list: its name and what it can do, whether it is on or not. Its
 * module (`module.ts`, and the libraries it uses) is loaded only when the configuration turns
 * it on.
 */
import { definePlatform } from '../platform/contract.js';

export const linearPlatform = definePlatform({
  name: 'linear',
  capabilities: {
    buttons: false,
    ephemeral: false,
    editsInPlace: false,
    agentSessions: true,
    checkRuns: false,
    install: true,
    sessionKeepAlive: true,
    stopAnswerFinal: true,
  },
  isOn: (config) => config.linear !== undefined,
  load: async () => (await import('./module.js')).createLinear,
});
