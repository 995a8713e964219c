/**
 * The Microsoft cloud the bot lives in (`TEAMS_CLOUD`): the Teams SDK's own endpoint sets
 * (`@microsoft/teams.api`'s `PUBLIC`, `US_GOV`, `US_GOV_DOD`, `CHINA`: the login endpoint, the
 * Bot Framework scope, the issuer of the Bot Connector's tokens and its OpenID metadata), and
 * the well-known service URL for a conversation whose own `serviceUrl` this replica has not
 * seen (Microsoft publishes these for proactive messages: public, GCC High, DoD; none for
 * China, where a conversation must first be heard from).
 */
import { CHINA, PUBLIC, US_GOV, US_GOV_DOD, type CloudEnvironment } from '@microsoft/teams.api';
import type { TeamsCloud } from '../../config/types.js';

export type { CloudEnvironment } from '@microsoft/teams.api';

const ENDPOINTS: Record<TeamsCloud, CloudEnvironment> = {
  public: PUBLIC,
  usgov: US_GOV,
  usgovdod: US_GOV_DOD,
  china: CHINA,
};

const PROACTIVE_SERVICE_URL: Record<TeamsCloud, string | undefined> = {
  public: 'https://smba.trafficmanager.net/teams/',
  usgov: 'https://smba.infra.gov.teams.microsoft.us/teams',
  usgovdod: 'https://smba.infra.dod.teams.microsoft.us/teams',
  china: undefined,
};

export function cloudEndpoints(cloud: TeamsCloud): CloudEnvironment {
  return ENDPOINTS[cloud];
}

export function proactiveServiceUrl(cloud: TeamsCloud): string | undefined {
  return PROACTIVE_SERVICE_URL[cloud];
}

/** The keys' address of an OpenID metadata address, as the Teams SDK derives it. */
export function keysUriOf(openIdMetadataUrl: string): string {
  return openIdMetadataUrl.replace(/\/openidconfiguration$/, '/keys');
}
