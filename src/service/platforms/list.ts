/** Every platform the relay speaks, in the order their routes and start-up lines appear. */
import { githubPlatform } from '../../github/index.js';
import { jiraPlatform } from '../../jira/index.js';
import { linearPlatform } from '../../linear/index.js';
import type { PlatformDefinition } from '../../platform/contract.js';
import { slackPlatform } from '../../slack/index.js';
import { teamsPlatform } from '../../teams/index.js';

export const PLATFORMS: readonly PlatformDefinition[] = [
  slackPlatform,
  githubPlatform,
  linearPlatform,
  jiraPlatform,
  teamsPlatform,
];
