/**
 * Rules between variables (what one variable requires of another), checked on the raw
 * environment so they are reported together with the per-variable problems.
 */
import { consoleConfig } from './console-variables.js';
import type {
  Config,
  GitHubAuth,
  GitHubConfig,
  JiraConfig,
  LinearConfig,
  TeamsConfig,
  TeamsCredential,
  SlackConfig,
} from './types.js';
import type { Env } from './schema.js';

export interface ConfigIssue {
  /** The environment variable at fault. */
  variable: string;
  /** What is wrong, in plain words; never the variable's value. */
  message: string;
}

type Raw = Record<string, string | undefined>;

/** The problems, the notes, and each platform's part of the `Config` when it is on. */
export type CombinationResult = { issues: ConfigIssue[]; notes: string[] } & Pick<
  Config,
  'slack' | 'github' | 'linear' | 'jira' | 'teams' | 'console'
>;

const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+-----END [A-Z ]*PRIVATE KEY-----/;

export function checkCombinations(
  raw: Raw,
  env: Env | undefined,
  readFile: (path: string) => string,
): CombinationResult {
  const issues: ConfigIssue[] = [];
  const notes: string[] = [];
  const has = (name: string) => raw[name] !== undefined;
  const issue = (variable: string, message: string) => issues.push({ variable, message });

  if (has('AGENT_API_URL') && !has('AGENT_API_KEY'))
    issue('AGENT_API_KEY', 'required when AGENT_API_URL is set');
  if (has('AGENT_API_KEY') && !has('AGENT_API_URL'))
    notes.push('AGENT_API_KEY is set without AGENT_API_URL: the embedded emulator is used');

  // Slack OAuth (any number of workspaces): client id, secret, state secret and a key that
  // seals the installations' tokens; it answers over HTTP, so a signing secret too.
  const OAUTH = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
  const oauth = has('SLACK_STATE_SECRET');
  if (oauth) {
    for (const name of [...OAUTH, 'SLACK_TOKEN_ENCRYPTION_KEY', 'SLACK_SIGNING_SECRET'])
      if (!has(name)) issue(name, 'required with SLACK_STATE_SECRET (OAuth install)');
    if (has('SLACK_APP_TOKEN'))
      issue('SLACK_APP_TOKEN', 'OAuth install answers over HTTP; unset it (no Socket Mode)');
    // Which workspaces may install is the operator's explicit choice, never a default.
    const anyWorkspace = ['1', 'true', 'yes', 'on'].includes(
      (raw.SLACK_ALLOW_ANY_WORKSPACE ?? '').toLowerCase(),
    );
    if (!has('SLACK_ALLOWED_TEAMS') && !anyWorkspace)
      issue(
        'SLACK_ALLOWED_TEAMS',
        'required with SLACK_STATE_SECRET (OAuth install): list the team ids (T…) and ' +
          'Enterprise Grid organisation ids (E…) that may install the app, or set ' +
          'SLACK_ALLOW_ANY_WORKSPACE=1 to let any Slack workspace install it',
      );
    if (has('SLACK_ALLOWED_TEAMS') && anyWorkspace)
      issue(
        'SLACK_ALLOW_ANY_WORKSPACE',
        'set SLACK_ALLOWED_TEAMS or SLACK_ALLOW_ANY_WORKSPACE, not both',
      );
  } else if (has('SLACK_TOKEN_ENCRYPTION_KEY')) {
    notes.push(
      'SLACK_TOKEN_ENCRYPTION_KEY is set without SLACK_STATE_SECRET: OAuth install is off',
    );
  }
  // Slack: a bot token plus a signing secret (HTTP) or an app token (Socket Mode).
  const slackToken = has('SLACK_BOT_TOKEN') || oauth;
  const slackWay = has('SLACK_SIGNING_SECRET') || has('SLACK_APP_TOKEN');
  if (slackToken && !slackWay)
    issue(
      'SLACK_SIGNING_SECRET',
      'required with SLACK_BOT_TOKEN (or set SLACK_APP_TOKEN for Socket Mode)',
    );
  if (has('SLACK_SIGNING_SECRET') && !slackToken)
    issue('SLACK_BOT_TOKEN', 'required with SLACK_SIGNING_SECRET (Slack needs both)');
  if (has('SLACK_APP_TOKEN') && !slackToken)
    issue('SLACK_BOT_TOKEN', 'required with SLACK_APP_TOKEN (Socket Mode needs both)');
  if (!slackToken && !slackWay) {
    const stray = [
      'SLACK_API_URL',
      'SLACK_ALLOWED_CHANNELS',
      'SLACK_ALLOWED_USERS',
      'SLACK_ALLOWED_TEAMS',
      'SLACK_ADMIN_USERS',
    ].filter(has);
    if (stray.length > 0) notes.push(`${stray.join(', ')} set but Slack is off`);
  }

  // GitHub: a webhook secret plus App or token credentials to reply with.
  const appId = has('GITHUB_APP_ID');
  const keyInline = has('GITHUB_PRIVATE_KEY');
  const keyPath = has('GITHUB_PRIVATE_KEY_PATH');
  const token = has('GITHUB_TOKEN');
  if (has('GITHUB_WEBHOOK_SECRET_PREVIOUS') && !has('GITHUB_WEBHOOK_SECRET'))
    issue('GITHUB_WEBHOOK_SECRET', 'required with GITHUB_WEBHOOK_SECRET_PREVIOUS');
  if (appId && !keyInline && !keyPath)
    issue('GITHUB_PRIVATE_KEY', 'required with GITHUB_APP_ID (or set GITHUB_PRIVATE_KEY_PATH)');
  if ((keyInline || keyPath) && !appId)
    issue('GITHUB_APP_ID', 'required with GITHUB_PRIVATE_KEY / GITHUB_PRIVATE_KEY_PATH');
  if (keyInline && keyPath)
    issue('GITHUB_PRIVATE_KEY_PATH', 'set GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH, not both');
  if (appId && token)
    issue('GITHUB_TOKEN', 'set GITHUB_TOKEN or GITHUB_APP_ID (App auth), not both');
  if (has('GITHUB_WEBHOOK_SECRET') && !appId && !token)
    issue(
      'GITHUB_TOKEN',
      'GITHUB_WEBHOOK_SECRET enables GitHub, which needs credentials to reply: ' +
        'set GITHUB_TOKEN, or GITHUB_APP_ID with GITHUB_PRIVATE_KEY (or _PATH)',
    );
  if (!has('GITHUB_WEBHOOK_SECRET') && (appId || token))
    notes.push('GitHub credentials are set but GITHUB_WEBHOOK_SECRET is not: GitHub is off');

  let privateKey: string | undefined;
  if (keyInline) {
    privateKey = raw.GITHUB_PRIVATE_KEY!.replace(/\\n/g, '\n');
    if (!PEM.test(privateKey))
      issue('GITHUB_PRIVATE_KEY', 'must be a PEM private key (-----BEGIN … PRIVATE KEY-----)');
  } else if (keyPath) {
    const path = raw.GITHUB_PRIVATE_KEY_PATH!;
    try {
      privateKey = readFile(path);
      if (!PEM.test(privateKey))
        issue('GITHUB_PRIVATE_KEY_PATH', `${path} does not hold a PEM private key`);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      issue('GITHUB_PRIVATE_KEY_PATH', `cannot read ${path} (${String(code ?? 'error')})`);
    }
  }

  // Linear: a webhook secret plus the app's token (one workspace) or OAuth install (many).
  const linearOAuth = has('LINEAR_CLIENT_ID');
  if (linearOAuth) {
    for (const name of [
      'LINEAR_CLIENT_SECRET',
      'LINEAR_TOKEN_ENCRYPTION_KEY',
      'LINEAR_WEBHOOK_SECRET',
      'LINEAR_ALLOWED_ORGANIZATIONS',
    ])
      if (!has(name)) issue(name, 'required with LINEAR_CLIENT_ID (OAuth install)');
  }
  if (has('LINEAR_WEBHOOK_SECRET') && !has('LINEAR_ACCESS_TOKEN') && !linearOAuth)
    issue(
      'LINEAR_ACCESS_TOKEN',
      "LINEAR_WEBHOOK_SECRET enables Linear, which needs the app's token to answer " +
        '(or set LINEAR_CLIENT_ID for OAuth install)',
    );
  if (!has('LINEAR_WEBHOOK_SECRET') && has('LINEAR_ACCESS_TOKEN'))
    notes.push('LINEAR_ACCESS_TOKEN is set but LINEAR_WEBHOOK_SECRET is not: Linear is off');

  // Jira: one site, its account's token, the webhook's secret, and the projects it serves;
  // or an OAuth app on the sites allowed (the operator's explicit list, never a default).
  const JIRA = ['JIRA_EMAIL', 'JIRA_API_TOKEN', 'JIRA_WEBHOOK_SECRET', 'JIRA_ALLOWED_PROJECTS'];
  const JIRA_OAUTH = [
    'JIRA_CLIENT_SECRET',
    'JIRA_TOKEN_ENCRYPTION_KEY',
    'JIRA_ALLOWED_SITES',
    'JIRA_ALLOWED_PROJECTS',
  ];
  if (has('JIRA_CLIENT_ID')) {
    for (const name of JIRA_OAUTH)
      if (!has(name)) issue(name, 'required with JIRA_CLIENT_ID (Jira OAuth install)');
    if (has('JIRA_CLOUD_ID'))
      issue('JIRA_CLOUD_ID', "is for one site (JIRA_BASE_URL); the OAuth app learns each site's");
    if (has('JIRA_BASE_URL'))
      issue(
        'JIRA_BASE_URL',
        'set JIRA_BASE_URL (one site, an API token) or JIRA_CLIENT_ID (OAuth, many sites), not both',
      );
  } else if (has('JIRA_BASE_URL')) {
    for (const name of JIRA) if (!has(name)) issue(name, 'required with JIRA_BASE_URL (Jira)');
  } else if ([...JIRA, ...JIRA_OAUTH].some(has)) {
    notes.push('JIRA_* variables are set but JIRA_BASE_URL is not: Jira is off');
  }

  // Teams: one single-tenant bot: its app id and secret, its tenant, and the tenants it serves.
  // Its token comes from the secret or from a managed identity: one of the two.
  const TEAMS = ['TEAMS_TENANT_ID', 'TEAMS_ALLOWED_TENANTS'];
  const TEAMS_CREDENTIALS = ['TEAMS_APP_PASSWORD', 'TEAMS_MANAGED_IDENTITY_CLIENT_ID'];
  if (has('TEAMS_APP_ID')) {
    for (const name of TEAMS) if (!has(name)) issue(name, 'required with TEAMS_APP_ID (Teams)');
    if (TEAMS_CREDENTIALS.every(has))
      issue(
        'TEAMS_MANAGED_IDENTITY_CLIENT_ID',
        'set TEAMS_APP_PASSWORD (a client secret) or TEAMS_MANAGED_IDENTITY_CLIENT_ID (a managed identity), not both',
      );
    else if (!TEAMS_CREDENTIALS.some(has))
      issue(
        'TEAMS_APP_PASSWORD',
        'required with TEAMS_APP_ID (Teams), unless TEAMS_MANAGED_IDENTITY_CLIENT_ID is set',
      );
  } else if ([...TEAMS, ...TEAMS_CREDENTIALS].some(has)) {
    notes.push('TEAMS_* variables are set but TEAMS_APP_ID is not: Teams is off');
  }

  const consoleSettings = consoleConfig(env, raw, issues);
  if (issues.length > 0 || env === undefined) return { issues, notes };
  return {
    issues,
    notes,
    slack: slackConfig(env),
    github: githubConfig(env, privateKey),
    ...linearPart(env),
    ...jiraPart(env),
    ...teamsPart(env),
    ...(consoleSettings ? { console: consoleSettings } : {}),
  };
}

function slackOAuth(env: Env): SlackConfig['oauth'] {
  const { SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET } = env;
  const key = env.SLACK_TOKEN_ENCRYPTION_KEY;
  if (!SLACK_CLIENT_ID || !SLACK_CLIENT_SECRET || !SLACK_STATE_SECRET || !key) return undefined;
  return {
    clientId: SLACK_CLIENT_ID,
    clientSecret: SLACK_CLIENT_SECRET,
    stateSecret: SLACK_STATE_SECRET,
    encryptionKey: key.trim(),
  };
}

function slackConfig(env: Env): SlackConfig | undefined {
  const oauth = env.SLACK_STATE_SECRET === undefined ? undefined : slackOAuth(env);
  if (env.SLACK_BOT_TOKEN === undefined && oauth === undefined) return undefined;
  return {
    signingSecret: env.SLACK_SIGNING_SECRET,
    ...(env.SLACK_BOT_TOKEN === undefined ? {} : { botToken: env.SLACK_BOT_TOKEN }),
    ...(oauth === undefined ? {} : { oauth }),
    appToken: env.SLACK_APP_TOKEN,
    apiUrl: env.SLACK_API_URL?.replace(/\/*$/, '/'),
    command: env.SLACK_COMMAND,
    allowedChannels: env.SLACK_ALLOWED_CHANNELS,
    allowedUsers: env.SLACK_ALLOWED_USERS,
    replyWithoutMention: env.SLACK_REPLY_WITHOUT_MENTION,
    allowedTeams: env.SLACK_ALLOWED_TEAMS,
    allowAnyWorkspace: env.SLACK_ALLOW_ANY_WORKSPACE,
    adminUsers: env.SLACK_ADMIN_USERS,
    allowExternalUsers: env.SLACK_ALLOW_EXTERNAL_USERS,
    allowGuests: env.SLACK_ALLOW_GUESTS,
  };
}

function githubConfig(env: Env, privateKey: string | undefined): GitHubConfig | undefined {
  if (env.GITHUB_WEBHOOK_SECRET === undefined) return undefined;
  const auth: GitHubAuth | undefined =
    env.GITHUB_APP_ID !== undefined && privateKey !== undefined
      ? { kind: 'app', appId: env.GITHUB_APP_ID, privateKey }
      : env.GITHUB_TOKEN !== undefined
        ? { kind: 'token', token: env.GITHUB_TOKEN }
        : undefined;
  if (auth === undefined) return undefined;
  return {
    webhookSecret: env.GITHUB_WEBHOOK_SECRET,
    previousWebhookSecret: env.GITHUB_WEBHOOK_SECRET_PREVIOUS,
    auth,
    apiUrl: env.GITHUB_API_URL.replace(/\/+$/, ''),
    botHandle: env.GITHUB_BOT_HANDLE,
    triggerLabel: env.GITHUB_TRIGGER_LABEL,
    allowedAssociations: env.GITHUB_ALLOWED_ASSOCIATIONS,
    minPermission: env.GITHUB_MIN_PERMISSION,
  };
}

function linearPart(env: Env): { linear?: LinearConfig } {
  if (env.LINEAR_WEBHOOK_SECRET === undefined) return {};
  const { LINEAR_CLIENT_ID, LINEAR_CLIENT_SECRET, LINEAR_TOKEN_ENCRYPTION_KEY } = env;
  const oauth =
    LINEAR_CLIENT_ID && LINEAR_CLIENT_SECRET && LINEAR_TOKEN_ENCRYPTION_KEY
      ? {
          clientId: LINEAR_CLIENT_ID,
          clientSecret: LINEAR_CLIENT_SECRET,
          encryptionKey: LINEAR_TOKEN_ENCRYPTION_KEY.trim(),
          allowedOrganizations: env.LINEAR_ALLOWED_ORGANIZATIONS,
          ...(env.CONSOLE_PUBLIC_URL
            ? {
                redirectUri: `${env.CONSOLE_PUBLIC_URL.replace(/\/+$/, '')}/linear/oauth_redirect`,
              }
            : {}),
        }
      : undefined;
  if (env.LINEAR_ACCESS_TOKEN === undefined && oauth === undefined) return {};
  return {
    linear: {
      webhookSecret: env.LINEAR_WEBHOOK_SECRET,
      ...(env.LINEAR_ACCESS_TOKEN === undefined ? {} : { token: env.LINEAR_ACCESS_TOKEN }),
      ...(oauth ? { oauth } : {}),
      apiUrl: env.LINEAR_API_URL,
      allowedTeams: env.LINEAR_ALLOWED_TEAMS,
      allowedOrganizations: env.LINEAR_ALLOWED_ORGANIZATIONS,
    },
  };
}

function jiraPart(env: Env): { jira?: JiraConfig } {
  if (env.JIRA_ALLOWED_PROJECTS.length === 0) return {};
  const common = {
    allowedProjects: env.JIRA_ALLOWED_PROJECTS,
    botHandle: env.JIRA_BOT_HANDLE,
    triggerLabel: env.JIRA_TRIGGER_LABEL,
    ...(env.JIRA_START_TRANSITION ? { startTransition: env.JIRA_START_TRANSITION } : {}),
  };
  const { JIRA_CLIENT_ID, JIRA_CLIENT_SECRET, JIRA_TOKEN_ENCRYPTION_KEY } = env;
  if (JIRA_CLIENT_ID) {
    if (!JIRA_CLIENT_SECRET || !JIRA_TOKEN_ENCRYPTION_KEY) return {};
    if (env.JIRA_ALLOWED_SITES.length === 0) return {};
    return {
      jira: {
        ...common,
        oauth: {
          clientId: JIRA_CLIENT_ID,
          clientSecret: JIRA_CLIENT_SECRET,
          encryptionKey: JIRA_TOKEN_ENCRYPTION_KEY.trim(),
          allowedSites: env.JIRA_ALLOWED_SITES,
          authUrl: env.JIRA_AUTH_URL.replace(/\/+$/, ''),
          apiUrl: env.JIRA_API_URL.replace(/\/+$/, ''),
          ...(env.CONSOLE_PUBLIC_URL
            ? { publicUrl: env.CONSOLE_PUBLIC_URL.replace(/\/+$/, '') }
            : {}),
        },
      },
    };
  }
  const { JIRA_BASE_URL, JIRA_EMAIL, JIRA_API_TOKEN, JIRA_WEBHOOK_SECRET } = env;
  if (!JIRA_BASE_URL || !JIRA_EMAIL || !JIRA_API_TOKEN || !JIRA_WEBHOOK_SECRET) return {};
  const baseUrl = JIRA_BASE_URL.replace(/\/+$/, '');
  return {
    jira: {
      baseUrl,
      site: new URL(baseUrl).hostname.toLowerCase(),
      ...(env.JIRA_CLOUD_ID
        ? { restUrl: `${env.JIRA_API_URL.replace(/\/+$/, '')}/ex/jira/${env.JIRA_CLOUD_ID}` }
        : {}),
      email: JIRA_EMAIL,
      apiToken: JIRA_API_TOKEN,
      webhookSecret: JIRA_WEBHOOK_SECRET,
      ...common,
      ...(env.JIRA_ACCOUNT_ID ? { accountId: env.JIRA_ACCOUNT_ID } : {}),
    },
  };
}

function teamsPart(env: Env): { teams?: TeamsConfig } {
  const { TEAMS_APP_ID, TEAMS_APP_PASSWORD, TEAMS_MANAGED_IDENTITY_CLIENT_ID, TEAMS_TENANT_ID } =
    env;
  if (!TEAMS_APP_ID || !TEAMS_TENANT_ID) return {};
  const credential: TeamsCredential | undefined = TEAMS_MANAGED_IDENTITY_CLIENT_ID
    ? { kind: 'managed-identity', clientId: TEAMS_MANAGED_IDENTITY_CLIENT_ID }
    : TEAMS_APP_PASSWORD
      ? { kind: 'secret', appPassword: TEAMS_APP_PASSWORD }
      : undefined;
  if (credential === undefined || env.TEAMS_ALLOWED_TENANTS.length === 0) return {};
  const lower = (ids: string[]) => ids.map((id) => id.toLowerCase());
  return {
    teams: {
      appId: TEAMS_APP_ID.toLowerCase(),
      credential,
      tenantId: TEAMS_TENANT_ID.toLowerCase(),
      allowedTenants: lower(env.TEAMS_ALLOWED_TENANTS),
      allowedUsers: lower(env.TEAMS_ALLOWED_USERS),
      allowedChannels: env.TEAMS_ALLOWED_CHANNELS,
      adminUsers: lower(env.TEAMS_ADMIN_USERS),
      allowGuests: env.TEAMS_ALLOW_GUESTS,
      botHandle: env.TEAMS_BOT_HANDLE,
      cloud: env.TEAMS_CLOUD,
    },
  };
}
