/** What the configuration tests share: the issues a refused environment names, and a platform that stays off. */
import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import type { Config, ConfigIssue } from '../../src/config/load.js';

/** The issues `loadConfig` refuses `env` with; fails when it does not refuse. */
export function configIssues(env: Record<string, string>): ConfigIssue[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

/** The same issues, each as `VARIABLE: message`. */
export function issuesOf(env: Record<string, string>): string[] {
  return configIssues(env).map((i) => `${i.variable}: ${i.message}`);
}

/**
 * A platform is off with no configuration, and off with only `others` of its variables, with a
 * note that `variable`, the one that turns it on, is not set.
 */
export function expectOffUnless(
  platform: 'jira' | 'teams' | 'linear',
  variable: string,
  others: Record<string, string>,
): void {
  expect(loadConfig({})[platform]).toBeUndefined();
  const config: Config = loadConfig(others);
  expect(config[platform]).toBeUndefined();
  expect(config.notes.join('\n')).toContain(`${variable} is not`);
}
