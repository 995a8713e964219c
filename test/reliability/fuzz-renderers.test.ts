/**
 * Fuzzing the renderers:
 * for any run the contract schema allows, and any text in it, the Slack and GitHub renderers
 * never throw, never exceed the platforms' size limits, and what they post carries no mass
 * mention, no mention or link the model did not name, no HTML, and the same Markdown structure
 * as the same message with harmless text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyOptions } from '../helpers/property.js';
import type { MessageModel, PersonView, RunView } from '../../src/core/message/message-model.js';
import { toRunView } from '../../src/core/message/run-view.js';
import { OPTION_KEYS } from '../../src/core/command/help-text.js';
import { renderGitHubMessage } from '../../src/github/render/render-markdown.js';
import { safeUrl } from '../../src/slack/render/mrkdwn.js';
import { renderSlackMessage } from '../../src/slack/render/render-blocks.js';
import { fieldText, hostileText, runItemArb, sizedText } from './fuzz-arbitraries.js';
import {
  GITHUB_COMMENT_LIMIT,
  githubProseProblems,
  markdownShape,
  slackMrkdwn,
  slackSizeProblems,
  slackTokenProblems,
} from './render-checks.js';

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const slackUser = fc.stringMatching(/^[UW][A-Z0-9]{2,10}$/);
const login = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,20}$/);
const person: fc.Arbitrary<PersonView> = fc
  .record({
    platform: fc.constantFrom('slack' as const, 'github' as const),
    id: fc.oneof(slackUser, login, hostileText),
    name: maybe(hostileText),
  })
  .map(defined);

const view: fc.Arbitrary<RunView> = fc
  .record({
    run: runItemArb,
    requester: maybe(person),
    applied: fc.array(
      fc
        .record({
          key: fc.constantFrom(...OPTION_KEYS),
          // Applied settings come from the parser (at most 256 characters).
          value: maybe(hostileText),
          source: fc.constantFrom('inline' as const, 'default' as const, 'service' as const),
        })
        .map(defined),
      { maxLength: 8 },
    ),
    factory: maybe(
      fc
        .record({ uid: maybe(hostileText), alias: maybe(hostileText), name: maybe(sizedText) })
        .map(defined),
    ),
  })
  .map(({ run, ...record }) => toRunView({ run, record: defined(record), now: 1_750_000_000_000 }));

const model: fc.Arbitrary<MessageModel> = fc.oneof(
  view.map((run) => ({ type: 'run_status' as const, run })),
  view.map((run) => ({ type: 'run_outcome' as const, run })),
  fc.record({ type: fc.constant('followup_sent' as const), run: view, message: sizedText }),
  fc.record({
    type: fc.constant('run_list' as const),
    runs: fc.array(view, { maxLength: 60 }),
    filters: fc
      .record({
        state: maybe(fc.array(hostileText, { maxLength: 4 })),
        name: maybe(hostileText),
        mine: maybe(fc.boolean()),
      })
      .map(defined),
    truncated: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('config' as const),
    scope: fc.oneof(
      fc.constant('slack:T0000001:CGENERAL1'),
      fc.constant('github:o/r'),
      hostileText,
    ),
    settings: fc.array(
      fc
        .record({
          key: fc.constantFrom(...OPTION_KEYS),
          value: hostileText,
          updatedBy: maybe(fc.oneof(slackUser, hostileText)),
        })
        .map(defined),
      { maxLength: 7 },
    ),
    changed: fc.subarray([...OPTION_KEYS]),
  }),
  fc.record({
    type: fc.constant('help' as const),
    invocation: fc.oneof(fc.constantFrom('/agent', '@agent-relay'), hostileText),
    options: fc.subarray([...OPTION_KEYS]),
  }),
  fc
    .record({
      type: fc.constant('notice' as const),
      tone: fc.constantFrom('info' as const, 'warning' as const, 'error' as const),
      text: sizedText,
      usage: maybe(sizedText),
      mention: maybe(person),
    })
    .map(defined),
  fc.record({
    type: fc.constant('factory_choice' as const),
    alias: hostileText,
    candidates: fc.array(
      fc.record({ uid: hostileText, name: fieldText, alias: maybe(hostileText) }).map(defined),
      { maxLength: 40 },
    ),
  }),
);

/** People, channels and URLs a message may legitimately point at. */
function allowedTargets(m: MessageModel) {
  const people: PersonView[] = [];
  const urls = new Set<string>();
  const views: RunView[] = m.type === 'run_list' ? m.runs : 'run' in m ? [m.run] : [];
  for (const v of views) {
    if (v.requester) people.push(v.requester);
    for (const u of [v.sessionLink, ...v.links.map((l) => l.url)]) {
      const safe = safeUrl(u);
      if (safe !== undefined) urls.add(safe);
    }
  }
  if (m.type === 'notice' && m.mention) people.push(m.mention);
  const users = new Set(people.map((p) => p.id));
  if (m.type === 'config') for (const s of m.settings) if (s.updatedBy) users.add(s.updatedBy);
  const channels = new Set<string>();
  const channel = m.type === 'config' ? /^slack:[^:]+:([A-Z0-9]+)$/.exec(m.scope)?.[1] : undefined;
  if (channel) channels.add(channel);
  const logins = new Set(people.filter((p) => p.platform === 'github').map((p) => p.id));
  return { users, channels, urls, logins };
}

const KEEP = new Set([
  'state',
  'url',
  'sessionLink',
  'id',
  'runId',
  'uid',
  'scope',
  'invocation',
  'kind',
  'type',
  'tone',
  'source',
  'key',
  'platform',
  'actions',
  'options',
  'changed',
  'updatedBy',
]);

/** The same model with every character of free text (but whitespace) replaced by `x`. */
function harmless<T>(value: T, key = ''): T {
  if (KEEP.has(key)) return value;
  if (typeof value === 'string') return value.replace(/\S/gu, 'x') as T;
  if (Array.isArray(value)) return value.map((v) => harmless(v, key)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, harmless(v, k)])) as T;
  }
  return value;
}

const countTokens = (texts: string[]) => texts.join('\n').split('<').length - 1;
const RUNS = 250;

describe('Slack renderer', () => {
  it('never throws and keeps every Block Kit limit', () => {
    fc.assert(
      fc.property(model, (m) => {
        const rendered = renderSlackMessage(m);
        expect(slackSizeProblems(rendered)).toEqual([]);
        expect(rendered.blocks.length).toBeGreaterThan(0);
      }),
      propertyOptions(RUNS),
    );
  });

  it('posts no mass mention, and no mention or link the message did not name', () => {
    fc.assert(
      fc.property(model, (m) => {
        const texts = slackMrkdwn(renderSlackMessage(m));
        expect(slackTokenProblems(texts, allowedTargets(m))).toEqual([]);
        for (const t of texts) expect(t).not.toMatch(/<!/);
        // Every `<` Slack reads comes from the renderer, not from the text.
        const plain = slackMrkdwn(renderSlackMessage(harmless(m)));
        expect(countTokens(texts)).toBeLessThanOrEqual(countTokens(plain));
      }),
      propertyOptions(RUNS),
    );
  });

  it('hostile text does not change which blocks a message has', () => {
    fc.assert(
      fc.property(model, (m) => {
        const types = (x: MessageModel) => renderSlackMessage(x).blocks.map((b) => b.type);
        expect(types(m)).toEqual(types(harmless(m)));
      }),
      propertyOptions(RUNS),
    );
  });
});

describe('GitHub renderer', () => {
  it('never throws and every comment fits GitHub’s limit', () => {
    fc.assert(
      fc.property(model, (m) => {
        const parts = renderGitHubMessage(m);
        expect(parts.length).toBeGreaterThan(0);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
      }),
      propertyOptions(RUNS),
    );
  });

  it('posts no HTML, no mention of anyone not named, no script link, no open code fence', () => {
    fc.assert(
      fc.property(model, (m) => {
        const { logins } = allowedTargets(m);
        for (const part of renderGitHubMessage(m)) {
          expect(githubProseProblems(part, logins)).toEqual([]);
        }
      }),
      propertyOptions(RUNS),
    );
  });

  it('hostile text does not change the Markdown structure (headings, table cells, quotes)', () => {
    let compared = 0;
    const options = propertyOptions<[MessageModel]>(RUNS);
    fc.assert(
      fc.property(model, (m) => {
        const hostile = renderGitHubMessage(m);
        const plain = renderGitHubMessage(harmless(m));
        if (hostile.length !== 1 || plain.length !== 1) return;
        compared++;
        expect(markdownShape(hostile[0] ?? '')).toEqual(markdownShape(plain[0] ?? ''));
      }),
      options,
    );
    expect(compared).toBeGreaterThan((options.numRuns ?? RUNS) / 4);
  });
});
