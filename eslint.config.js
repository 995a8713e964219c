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
    ],
    'src/slack/ingress/**': [SIBLINGS('render', 'notify'), UPPER('runs', 'service', 'store')],
    'src/slack/render/**': [SIBLINGS('ingress', 'notify'), UPPER('runs', 'service', 'store')],
    'src/slack/notify/**': [SIBLINGS('ingress'), UPPER('runs', 'service', 'store')],
    // Slack surfaces beside the message flow (install, home, shortcut, assistant): they build on
    // api/ (and render/ for views); ingress/ registers their listeners.
    'src/slack/install/**': [
      SIBLINGS('ingress', 'notify', 'home', 'shortcut', 'assistant'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/slack/home/**': [
      SIBLINGS('ingress', 'notify', 'install', 'shortcut', 'assistant'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/slack/shortcut/**': [
      SIBLINGS('ingress', 'notify', 'install', 'home', 'assistant'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/slack/assistant/**': [
      SIBLINGS('ingress', 'notify', 'install', 'home', 'shortcut'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/github/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/github/ingress/**': [SIBLINGS('render', 'notify'), UPPER('runs', 'service', 'store')],
    'src/github/render/**': [SIBLINGS('ingress', 'notify'), UPPER('runs', 'service', 'store')],
    'src/github/notify/**': [SIBLINGS('ingress'), UPPER('runs', 'service', 'store')],
    'src/linear/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/linear/ingress/**': [SIBLINGS('render', 'notify'), UPPER('runs', 'service', 'store')],
    'src/linear/render/**': [SIBLINGS('ingress', 'notify'), UPPER('runs', 'service', 'store')],
    'src/linear/notify/**': [SIBLINGS('ingress', 'install'), UPPER('runs', 'service', 'store')],
    'src/linear/install/**': [
      SIBLINGS('ingress', 'notify', 'render'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/jira/api/**': [
      SIBLINGS('ingress', 'render', 'notify', 'install'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/jira/ingress/**': [
      SIBLINGS('render', 'notify', 'install'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/jira/render/**': [SIBLINGS('ingress', 'notify'), UPPER('runs', 'service', 'store')],
    'src/jira/notify/**': [SIBLINGS('ingress', 'install'), UPPER('runs', 'service', 'store')],
    'src/jira/install/**': [
      SIBLINGS('ingress', 'notify', 'render'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/teams/api/**': [
      SIBLINGS('ingress', 'render', 'notify'),
      UPPER('runs', 'service', 'store'),
    ],
    'src/teams/ingress/**': [SIBLINGS('render', 'notify'), UPPER('runs', 'service', 'store')],
    'src/teams/render/**': [SIBLINGS('ingress', 'notify'), UPPER('runs', 'service', 'store')],
    'src/teams/notify/**': [SIBLINGS('ingress'), UPPER('runs', 'service', 'store')],
    // The platform contract and kit: what every platform shares, above none of them.
    'src/platform/**': [ADAPTERS, AGENT, UPPER('runs', 'service', 'store', 'console')],
    // A platform's own module (platform.ts) wires its folders from the config and the ports.
    'src/slack/*.ts': [UPPER('runs', 'service', 'store', 'console')],
    'src/github/*.ts': [UPPER('runs', 'service', 'store', 'console')],
    'src/linear/*.ts': [UPPER('runs', 'service', 'store', 'console')],
    'src/jira/*.ts': [UPPER('runs', 'service', 'store', 'console')],
    'src/teams/*.ts': [UPPER('runs', 'service', 'store', 'console')],
    'src/console/**': [PLATFORM_INSIDES, UPPER('runs', 'store', 'emulator', 'agent')],
    'src/service/**': [PLATFORM_INSIDES],
    'src/*.ts': [PLATFORM_INSIDES],
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
