/**
 * Teams in the platform list: its name and what it can do, whether it is on or not. Its
 * module (`module.ts`, and the libraries it uses) is loaded only when the configuration turns
 * it on.
 */
import { definePlatform } from '../platform/contract.js';

/** For the start-up report, which must not load the module to say which credential is used. */
export { describeCredential } from './api/managed-identity.js';

export const teamsPlatform = definePlatform({
  name: 'teams',
  capabilities: {
    buttons: true,
    ephemeral: false,
    editsInPlace: true,
    agentSessions: false,
    checkRuns: false,
    install: false,
    sessionKeepAlive: false,
    stopAnswerFinal: false,
  },
  isOn: (config) => config.teams !== undefined,
  load: async () => (await import('./module.js')).createTeams,
});
