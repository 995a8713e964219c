/**
 * fast-check arbitraries for the fuzzing properties: hostile text (mass mentions, Slack and
 * Markdown markup, HTML, control characters, lone surrogates) and service runs as the contract
 * schema allows. Commands of the grammar are in fuzz-commands.ts.
 */
import fc from 'fast-check';
import { KNOWN_STATES, RunItemSchema } from '../../src/agent/schemas.js';
import type { RunItem } from '../../src/agent/schemas.js';

/** Pieces that mean something to Slack, GitHub Markdown, HTML or our grammar. */
export const HOSTILE_PIECES = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!subteam^S0123|@team>',
  '<!date^1392734382^{date}|x>',
  '@everyone',
  '@here',
  '@channel',
  '@octocat',
  '@org/team',
  '<@U0BADBAD1>',
  '<@W0BADBAD1|boss>',
  '<#C0BADBAD1|general>',
  '<https://evil.example/phish|click me>',
  '<mailto:x@evil.example|mail>',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<details><summary>x</summary>',
  '<!-- hidden -->',
  '```',
  '~~~',
  '````js',
  '`',
  '| a | b |',
  '|---|',
  '# heading',
  '## h2',
  '> quote',
  '- item',
  '* item',
  '1. item',
  '---',
  '===',
  '[link](javascript:alert(1))',
  '[x](https://evil.example)',
  '![img](https://evil.example/y.png)',
  '**bold**',
  '_it_',
  '~~s~~',
  '\\',
  '&amp;',
  '&lt;',
  '&',
  '<',
  '>',
  '*',
  '_',
  '|',
  '[',
  ']',
  '(',
  ')',
  '\u0000',
  '\u202e',
  '\u200b',
  '\ud800',
  '\udc00',
  '\r\n',
  '\n',
  '\r',
  '\t',
  '  ',
  '🎉',
  '👩‍💻',
  '@agent-relay',
  '/agent',
  'model=x',
  '[model=x]',
  '"',
  '“',
] as const;

export const hostileText: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ maxLength: 6 })), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join('') || '<!channel>');

/** Any text: hostile pieces, arbitrary code units (surrogates included), plain strings. */
export const anyText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HOSTILE_PIECES),
      fc.string({ maxLength: 10 }),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/** Mostly short hostile text, sometimes long: up to `max` characters. */
function textUpTo(max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 2,
      arbitrary: fc
        .tuple(hostileText, fc.integer({ min: 500, max }))
        .map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n)),
    },
  );
}

/**
 * Text for a field a message has once or twice (a title, a prompt, a status message): long
 * enough alone to pass GitHub's 65,536-character comment limit.
 */
export const sizedText: fc.Arbitrary<string> = textUpTo(70_000);

/**
 * Text for a field a message may have dozens of (an artifact's url and names, a list's
 * entries): past Slack's 3,000-character text and URL limits, and no more, so that a message
 * stays a few megabytes at most (every one is rendered twice and, on a failure, printed).
 */
export const fieldText: fc.Arbitrary<string> = textUpTo(3_500);

// ---------------------------------------------------------------------------------------
// Runs as the service may send them

const isoDate = fc
  .date({
    min: new Date('2020-01-01T00:00:00Z'),
    max: new Date('2035-01-01T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString());
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });

const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/a|b<c>d',
    'https://github.com/o/r/pull/7',
    'http://x/)](javascript:alert(1))',
    'not a url',
    '',
  ),
  fieldText,
);

const artifact = fc.record({
  artifact_type: fc.oneof(
    fc.constantFrom('PULL_REQUEST', 'PLAN', 'SCREENSHOT', 'FILE', 'EXTERNAL_REFERENCE'),
    hostileText,
  ),
  created_at: maybe(isoDate),
  data: fc.record(
    {
      url,
      branch: fieldText,
      title: fieldText,
      filename: fieldText,
      filepath: fieldText,
      reference_type: hostileText,
    },
    { requiredKeys: [] },
  ),
});

/** A RunItem as the contract schema allows (validated by the schema itself). */
export const runItemArb: fc.Arbitrary<RunItem> = fc
  .record({
    // Ids and states are shown in code spans; the service keeps them short.
    run_id: fc.oneof(fc.uuid(), hostileText),
    title: sizedText,
    prompt: sizedText,
    state: fc.oneof(
      fc.constantFrom(...KNOWN_STATES),
      hostileText.filter((s) => s.length > 0),
    ),
    created_at: fc.oneof(isoDate, hostileText),
    updated_at: fc.oneof(isoDate, hostileText),
    session_link: maybe(url),
    started_at: maybe(fc.oneof(isoDate, hostileText)),
    run_time: maybe(fc.oneof(fc.constantFrom('PT4M12S', 'PT1H', 'P2D', 'PT0.5S'), hostileText)),
    status_message: maybe(fc.record({ message: sizedText, error_code: maybe(hostileText) })),
    artifacts: maybe(fc.array(artifact, { maxLength: 70 })),
    is_run_type_cancellable: maybe(fc.boolean()),
  })
  .map((raw) => RunItemSchema.parse(JSON.parse(JSON.stringify(raw))));
