/**
 * What the README and docs/ tell a newcomer to type or set exists in the code: every
 * `npm run …` is a script in package.json, every `agent-relay …` command is one the CLI
 * answers, every variable name in capitals is one the configuration reads (or one of the few
 * listed below, which belong to Node, PostgreSQL, the test runner or the Agent Run Service's
 * own enums), and the body limits the pages state are the ones the HTTP server enforces.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { CONFIG_VARIABLES } from '../../src/config/variables.js';
import {
  GITHUB_BODY_LIMIT_BYTES,
  SLACK_BODY_LIMIT_BYTES,
  SMALL_BODY_LIMIT_BYTES,
} from '../../src/core/ingress/body-limit.js';
import { LINEAR_BODY_LIMIT_BYTES } from '../../src/linear/index.js';
import { ROOT } from '../helpers/child-process.js';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'html' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const pages = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))].map((path) => ({
  name: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));
const page = (name: string) => pages.find((p) => p.name === name)?.text ?? '';

/** Names in capitals the pages use that are not agent-relay's variables, and what they are. */
const NOT_OURS: Record<string, string> = {
  NODE_OPTIONS: "Node's own",
  NODE_COMPILE_CACHE: "Node's own (its compile cache, measured and left out)",
  POSTGRES_PASSWORD: "the PostgreSQL image's, in compose.yaml",
  FC_SEED: "the property tests' replay seed",
  FC_PATH: "the property tests' replay path",
  FC_RUNS: "the property tests' number of runs",
  UPDATE_SCREENSHOTS: 'the gallery and console picture tests',
  PUBLISHED_ENDPOINTS: 'a constant of the contract test',
  PULL_REQUEST: "an Agent Run Service's artifact type",
  EXTERNAL_REFERENCE: "an Agent Run Service's artifact type",
  SQLITE_FULL: "SQLite's error code",
  SO_REUSEPORT: 'the socket option the HTTP server listens with on Linux',
  SQLITE_DBCONFIG_ENABLE_QPSG:
    "SQLite's C option for a stable query planner, named in a decision record",
  NODE_MODULE_VERSION: "Node's native-module ABI, named in its error",
  LANE_CONCURRENCY: "the outbox lanes' constant in outbox-worker.ts, named in a decision record",
  CLIENT_ID: "the Teams developer CLI's output file",
  CLIENT_SECRET: "the Teams developer CLI's output file",
  TENANT_ID: "the Teams developer CLI's output file",
  AZURE_POD_IDENTITY_AUTHORITY_HOST: "MSAL's, where it finds a managed identity's endpoint",
  TEST_PGBOUNCER: 'the scale-out test: 0 runs it straight to PostgreSQL, not through PgBouncer',
};

const scripts = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);

describe('what the README and docs name exists', () => {
  it('finds the pages', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(page('README.md')).toContain('npm start');
  });

  it('every npm script they run is in package.json', () => {
    const named = pages.flatMap(({ name, text }) => [
      ...[...text.matchAll(/\bnpm run ([a-z][\w:-]*)/g)].map((m) => ({ name, script: m[1]! })),
      ...[...text.matchAll(/\bnpm (start|test)\b/g)].map((m) => ({ name, script: m[1]! })),
    ]);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((n) => !scripts.includes(n.script))).toEqual([]);
  });

  it('every agent-relay command they show is one the CLI answers', async () => {
    // In code only (fenced blocks and inline code): in prose "agent-relay" is the service.
    const code = (text: string) =>
      [...text.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((m) => m[0]).join('\n');
    const commands = new Set(
      pages.flatMap(({ text }) =>
        [
          ...code(text).matchAll(
            /(?:(?<!exec |--name |@)\bagent-relay|node dist\/cli\.js|src\/cli\.ts) (?!-)([a-z][a-z-]*)\b/g,
          ),
        ].map((m) => m[1]!),
      ),
    );
    expect(commands.size).toBeGreaterThan(3);
    const quiet = { out: () => {}, err: () => {}, env: {} };
    for (const command of commands)
      expect(await main([command, '--help'], quiet), `agent-relay ${command} --help`).toBe(0);
  });

  it('every variable they name is one the configuration reads, or listed as not ours', () => {
    const known = new Set(CONFIG_VARIABLES.map((v) => v.name));
    const unknown = pages.flatMap(({ name, text }) =>
      [...text.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)]
        .map((m) => m[1]!)
        .filter((variable) => !known.has(variable) && !(variable in NOT_OURS))
        .map((variable) => `${name}: ${variable}`),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('the body limits they state are the ones enforced', () => {
    const size = (bytes: number) =>
      bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
    expect(page('docs/setup-github.md')).toContain(
      `| 413 | a body over ${size(GITHUB_BODY_LIMIT_BYTES)}`,
    );
    expect(page('docs/setup-linear.md')).toContain(
      `| 413, 415 | a body over ${size(LINEAR_BODY_LIMIT_BYTES)}`,
    );
    expect(page('docs/operating.md').replace(/\s+/g, ' ')).toContain(
      `(${size(SLACK_BODY_LIMIT_BYTES)} on \`/slack/events\`, ${size(GITHUB_BODY_LIMIT_BYTES)} on ` +
        `\`/github/webhooks\`, ${size(SMALL_BODY_LIMIT_BYTES)} elsewhere;`,
    );
    expect(page('docs/security.md')).toContain(
      `(${size(SLACK_BODY_LIMIT_BYTES)} Slack, ${size(GITHUB_BODY_LIMIT_BYTES)} GitHub;`,
    );
  });
});
