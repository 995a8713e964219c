// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SDKS = {
  group: ['@slack/*', '@octokit/*', '@microsoft/*', 'undici', 'better-sqlite3', 'pg', 'kysely'],
  message: 'core/ and runs/ talk to ports, not platform SDKs (docs/architecture.md).',
};
const ADAPTERS = {
  group: [
    '**/slack/**',
    '**/github/**',
    '**/linear/**',
    '**/jira/**',
    '**/teams/**',
    '**/store/**',
    '**/emulator/**',
    '**/fakes/**',
  ],
  message: 'core/ and runs/ talk to ports, not adapters (docs/architecture.md).',
};
const AGENT = {
  group: ['**/agent/**'],
  message:
    "core/ and runs/ reach the Agent Run Service through the AgentService port; the run's shape is core/run.ts.",
};
/** A use case shares rules with the tracker through runs/*.ts, never by reaching into it. */
const USE_CASES = {
  group: ['../tracker/**', '../workers/**'],
  message: 'Use cases do not import the tracker or the workers; a rule both need lives in runs/.',
};
/** Folders above this one in the flow (docs/architecture.md, "Layout"). */
const UPPER = (...folders) => ({
  group: folders.flatMap((f) => [`../${f}/**`, `../../${f}/**`, `../../../${f}/**`]),
  message: 'This folder may not import that one (see its README and docs/architecture.md).',
});
/** Roles of one platform that must not lean on each other. */
const SIBLINGS = (...roles) => ({
  group: roles.map((r) => `../${r}/**`),
  message: 'ingress/, render/ and notify/ share only api/ (see the folder README).',
});
/** Outside slack/ and github/, a platform is reached only through its index.ts. */
const PLATFORM_INSIDES = {
  group: ['**/slack/*/**', '**/github/*/**', '**/linear/*/**', '**/jira/*/**', '**/teams/*/**'],
  message: "Import a platform through its index.ts (e.g. '../slack/index.js').",
};

const PLATFORM_NAMES = ['slack', 'github', 'linear', 'jira', 'teams'];
/** A platform never borrows from another: what they share lives in src/platform/ (the kit). */
const OTHER_PLATFORMS = (self) => ({
  group: PLATFORM_NAMES.filter((p) => p !== self).map((p) => `**/${p}/**`),
  message: 'A platform does not import another; what platforms share is in src/platform/.',
});
/** The composition root names no platform: the list in src/service/platforms/list.ts does. */
const ANY_PLATFORM = {
  group: PLATFORM_NAMES.map((p) => `**/${p}/**`),
  message: 'main.ts and cli.ts name no platform; add one to src/service/platforms/list.ts.',
};

/** One `no-restricted-imports` entry per folder (a later entry would replace an earlier). */
function boundaries(byFolder) {
  return Object.entries(byFolder).map(([files, patterns]) => ({
    files: [files],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  }));
}

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: false },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Only src/config/load.ts reads process.env (docs/architecture.md).',
        },
      ],
    },
  },
  {
    files: ['src/config/load.ts', 'test/**', 'bench/**', 'scripts/**', '*.config.*'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // Import boundaries: what each folder may import (its README says the same in words).
  ...boundaries({
    'src/core/**': [SDKS, ADAPTERS, AGENT, UPPER('runs', 'service', 'config')],
    'src/runs/**': [SDKS, ADAPTERS, AGENT, UPPER('service', 'config')],
    'src/runs/use-cases/**': [SDKS, ADAPTERS, AGENT, UPPER('service', 'config'), USE_CASES],
    'src/agent/**': [UPPER('runs', 'service', 'config', 'store', 'slack', 'github', 'emulator')],
    'src/emulator/**': [UPPER('runs', 'service', 'config', 'store', 'slack', 'github')],
    'src/store/**': [UPPER('runs', 'service', 'slack', 'github', 'emulator', 'agent')],
    'src/slack/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/slack/ingress/**': [
      SIBLINGS('render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/slack/render/**': [
      SIBLINGS('ingress', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/slack/notify/**': [
      SIBLINGS('ingress'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    // Slack surfaces beside the message flow (install, home, shortcut, assistant): they build on
    // api/ (and render/ for views); ingress/ registers their listeners.
    'src/slack/install/**': [
      SIBLINGS('ingress', 'notify', 'home', 'shortcut', 'assistant'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/slack/home/**': [
      SIBLINGS('ingress', 'notify', 'install', 'shortcut', 'assistant'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/slack/shortcut/**': [
      SIBLINGS('ingress', 'notify', 'install', 'home', 'assistant'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/slack/assistant/**': [
      SIBLINGS('ingress', 'notify', 'install', 'home', 'shortcut'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('slack'),
    ],
    'src/github/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('github'),
    ],
    'src/github/ingress/**': [
      SIBLINGS('render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('github'),
    ],
    'src/github/render/**': [
      SIBLINGS('ingress', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('github'),
    ],
    'src/github/notify/**': [
      SIBLINGS('ingress'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('github'),
    ],
    'src/linear/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('linear'),
    ],
    'src/linear/ingress/**': [
      SIBLINGS('render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('linear'),
    ],
    'src/linear/render/**': [
      SIBLINGS('ingress', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('linear'),
    ],
    'src/linear/notify/**': [
      SIBLINGS('ingress', 'install'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('linear'),
    ],
    'src/linear/install/**': [
      SIBLINGS('ingress', 'notify', 'render'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('linear'),
    ],
    'src/jira/api/**': [
      SIBLINGS('ingress', 'render', 'notify', 'install'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('jira'),
    ],
    'src/jira/ingress/**': [
      SIBLINGS('render', 'notify', 'install'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('jira'),
    ],
    'src/jira/render/**': [
      SIBLINGS('ingress', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('jira'),
    ],
    'src/jira/notify/**': [
      SIBLINGS('ingress', 'install'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('jira'),
    ],
    'src/jira/install/**': [
      SIBLINGS('ingress', 'notify', 'render'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('jira'),
    ],
    'src/teams/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('teams'),
    ],
    'src/teams/ingress/**': [
      SIBLINGS('render', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('teams'),
    ],
    'src/teams/render/**': [
      SIBLINGS('ingress', 'notify'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('teams'),
    ],
    'src/teams/notify/**': [
      SIBLINGS('ingress'),
      UPPER('runs', 'service', 'store'),
      OTHER_PLATFORMS('teams'),
    ],
    // The platform contract and kit: what every platform shares, above none of them.
    'src/platform/**': [ADAPTERS, AGENT, UPPER('runs', 'service', 'store', 'console')],
    // A platform's own module (platform.ts) wires its folders from the config and the ports.
    'src/slack/*.ts': [UPPER('runs', 'service', 'store', 'console'), OTHER_PLATFORMS('slack')],
    'src/github/*.ts': [UPPER('runs', 'service', 'store', 'console'), OTHER_PLATFORMS('github')],
    'src/linear/*.ts': [UPPER('runs', 'service', 'store', 'console'), OTHER_PLATFORMS('linear')],
    'src/jira/*.ts': [UPPER('runs', 'service', 'store', 'console'), OTHER_PLATFORMS('jira')],
    'src/teams/*.ts': [UPPER('runs', 'service', 'store', 'console'), OTHER_PLATFORMS('teams')],
    'src/console/**': [PLATFORM_INSIDES, UPPER('runs', 'store', 'emulator', 'agent')],
    'src/service/**': [PLATFORM_INSIDES],
    'src/*.ts': [ANY_PLATFORM],
  }),
  {
    files: ['src/**'],
    ignores: ['src/demo/**', 'src/fakes/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/fakes/**'],
              message: 'The fakes are for the demo, tests and bench; the service never uses them.',
            },
          ],
        },
      ],
    },
  },
);
