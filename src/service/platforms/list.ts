/** Every platform the relay speaks, in the order their routes and start-up lines appear. */
import { githubPlatform } from '../../github/platform.js';
import { jiraPlatform } from '../../jira/platform.js';
import { linearPlatform } from '../../linear/platform.js';
import type { PlatformDefinition } from '../../platform/contract.js';
import { slackPlatform } from '../../slack/platform.js';
import { teamsPlatform } from '../../teams/platform.js';

export const PLATFORMS: readonly PlatformDefinition[] = [
  slackPlatform,
  githubPlatform,
  linearPlatform,
  jiraPlatform,
  teamsPlatform,
];
