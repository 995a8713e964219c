/**
 * What a fake does with a request its platform's published description refuses: it answers
 * the way the platform answers it (a GraphQL validation error, a 422, Slack's
 * `invalid_arguments`), and it records the refusal here. The tests' setup
 * (`test/setup/published-fakes.ts`) fails every test after which a refusal is left, so a request
 * the relay sends that the real platform would refuse fails the test that sent it, whatever
 * the product made of the error. A test that sends such a request on purpose takes it with
 * `takeRefusals()` and asserts on it.
 *
 * The list is kept on `globalThis`, so every copy of this module in one process (a test file
 * and its setup file) sees the same one.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type PublishedPlatform = 'slack' | 'github' | 'linear' | 'jira';

export interface PublishedRefusal {
  platform: PublishedPlatform;
  /** The request, as the platform names it: `POST /repos/{owner}/{repo}/check-runs`, … */
  request: string;
  /** What the description refuses, one line each. */
  problems: string[];
  /** The description that refused it (a vendored file, an SDK's types, a documented rule). */
  source: string;
}

const KEY = Symbol.for('agent-relay.fakes.published-refusals');
type Holder = { [KEY]?: PublishedRefusal[] };

function refusals(): PublishedRefusal[] {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= []);
}

/** Record a request the platform's description refuses (the fake still answers it). */
export function recordRefusal(refusal: PublishedRefusal): void {
  refusals().push(refusal);
}

/** The refusals recorded since the last take, oldest first; the list is emptied. */
export function takeRefusals(): PublishedRefusal[] {
  return refusals().splice(0);
}

/** Throw, naming each refusal, when any was recorded since the last take (the tests' guard). */
export function assertNoRefusals(): void {
  const left = takeRefusals();
  if (left.length === 0) return;
  throw new Error(
    `a fake was sent what its platform's published description refuses:\n${left
      .map(describeRefusal)
      .join('\n')}`,
  );
}

/** A refusal as one readable paragraph (for a failed test's message). */
export function describeRefusal(r: PublishedRefusal): string {
  return `${r.platform} ${r.request} (${r.source}):\n  ${r.problems.join('\n  ')}`;
}

/**
 * Where a vendored description (`schemas/<name>`) is: beside this module when it runs from the
 * source, or in the source tree when it runs compiled (`dist/fakes/` carries no `schemas/`).
 * Undefined where neither is there (a built image without the source): the fakes then answer
 * unchecked, and a test of each description asserts it is found, so a clone always checks.
 */
export function vendoredFile(name: string): string | undefined {
  return [`./schemas/${name}`, `../../src/fakes/schemas/${name}`]
    .map((p) => fileURLToPath(new URL(p, import.meta.url)))
    .find((p) => existsSync(p));
}
