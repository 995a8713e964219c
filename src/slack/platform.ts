/**
 * Slack in the platform list: its name and what it can do, whether it is on or not. Its
 * module (`module.ts`, and the libraries it uses) is loaded only when the configuration turns
 * it on.
 */
import { definePlatform } from '../platform/contract.js';

export const slackPlatform = definePlatform({
  name: 'slack',
  capabilities: {
    buttons: true,
    ephemeral: true,
    editsInPlace: true,
    agentSessions: true,
    checkRuns: false,
    install: true,
    sessionKeepAlive: false,
    stopAnswerFinal: false,
  },
  isOn: (config) => config.slack !== undefined,
  load: async () => (await import('./module.js')).createSlack,
});
