// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  {
    files: ['src/core/**', 'src/runs/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@slack/*', '@octokit/*', 'undici', 'better-sqlite3', 'pg', 'kysely'],
              message: 'core/ and runs/ talk to ports, not platform SDKs (docs/architecture.md).',
            },
            {
              group: ['**/slack/**', '**/github/**', '**/store/**', '**/emulator/**'],
              message: 'core/ and runs/ talk to ports, not adapters (docs/architecture.md).',
            },
            {
              group: ['**/agent/**', '!**/agent/schemas.js'],
              message: 'core/ and runs/ use only the contract schemas of agent/, via ports.',
            },
          ],
        },
      ],
    },
  },
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
