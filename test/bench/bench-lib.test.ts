import { describe, expect, it } from 'vitest';
import { matchReceipts } from '../../bench/children/match-receipts.js';
import type { SeededRun } from '../../bench/children/backends-api.js';
import { ArgsError, DEFAULT_SCENARIOS, parseArgs } from '../../bench/lib/args.js';
import { markdownTable } from '../../bench/lib/markdown.js';
import { median, percentileOfSorted, summarize } from '../../bench/lib/stats.js';
import { lineChart } from '../../bench/lib/svg-chart.js';
import { mergeRuns, msPerMention } from '../../bench/scenarios/first-sign.js';
import type { PhaseRow, PhaseRun } from '../../bench/scenarios/first-sign.js';

describe('bench stats', () => {
  it('takes nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileOfSorted(xs, 50)).toBe(50);
    expect(percentileOfSorted(xs, 95)).toBe(95);
    expect(percentileOfSorted(xs, 99)).toBe(99);
    expect(percentileOfSorted([7], 99)).toBe(7);
    expect(percentileOfSorted([], 50)).toBeNaN();
  });

  it('summarizes unsorted samples and keeps "never" (Infinity) at the top', () => {
    const s = summarize([3, 1, 2, Number.POSITIVE_INFINITY]);
    expect(s).toMatchObject({ n: 4, p50: 2, p99: Number.POSITIVE_INFINITY });
  });

  it('takes medians of odd and even counts, ignoring NaN', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 2])).toBe(2);
    expect(median([])).toBeNaN();
  });
});

describe('bench arguments', () => {
  const defaults = { resultsDir: '/r' };
  it('runs every scenario but scaleout by default and one when named', () => {
    expect(parseArgs([], defaults).scenarios).toEqual([...DEFAULT_SCENARIOS]);
    expect(DEFAULT_SCENARIOS).not.toContain('scaleout');
    expect(parseArgs(['scaleout'], defaults).scenarios).toEqual(['scaleout']);
    expect(parseArgs(['tracking', '--quick'], defaults)).toMatchObject({
      scenarios: ['tracking'],
      quick: true,
      resultsDir: '/r',
    });
    expect(parseArgs(['--results-dir=/x', '--charts-dir', '/c'], defaults)).toMatchObject({
      resultsDir: '/x',
      chartsDir: '/c',
    });
    expect(parseArgs(['tracking', '--sizes', '1000'], defaults).sizes).toEqual([1000]);
    expect(parseArgs(['--sizes=100,1000'], defaults).sizes).toEqual([100, 1000]);
    expect(() => parseArgs(['--sizes', '0'], defaults)).toThrow(ArgsError);
    expect(() => parseArgs(['--sizes', 'many'], defaults)).toThrow(ArgsError);
  });

  it('takes the floor A/B options: rate, create latency, repeats, ladder rates, baseline tree', () => {
    expect(
      parseArgs(
        ['floor', '--rate', '60', '--create-ms=3000', '--repeats', '1', '--rates', '0'],
        defaults,
      ),
    ).toMatchObject({ scenarios: ['floor'], rate: 60, createMs: 3000, repeats: 1, rates: [] });
    expect(parseArgs(['--rates', '30,60', '--baseline', '/tmp/main'], defaults)).toMatchObject({
      rates: [30, 60],
      baseline: '/tmp/main',
    });
    expect(() => parseArgs(['--rate', '0'], defaults)).toThrow(ArgsError);
    expect(() => parseArgs(['--create-ms', '-1'], defaults)).toThrow(ArgsError);
    expect(() => parseArgs(['--rates', 'fast'], defaults)).toThrow(ArgsError);
  });

  it('refuses unknown scenarios and options, and options without values', () => {
    expect(() => parseArgs(['trakcing'], defaults)).toThrow(ArgsError);
    expect(() => parseArgs(['--fast'], defaults)).toThrow(/unknown option/);
    expect(() => parseArgs(['--results-dir'], defaults)).toThrow(/needs a value/);
  });
});

describe('bench output', () => {
  it('writes a Markdown table with right-aligned number columns and escaped cells', () => {
    const table = markdownTable(
      ['name', 'p99 ms#'],
      [
        ['a|b', 12.345],
        ['c', undefined],
      ],
    );
    expect(table.split('\n')).toEqual([
      '| name | p99 ms |',
      '| --- | ---: |',
      '| a\\|b | 12.3 |',
      '| c | – |',
    ]);
  });

  it('draws an SVG line chart with one polyline per series and a legend', () => {
    const svg = lineChart({
      title: 'T <1>',
      xLabel: 'x',
      yLabel: 'y',
      logY: true,
      series: [
        {
          name: 'a',
          points: [
            [1, 10],
            [2, 100],
          ],
        },
        {
          name: 'b',
          points: [
            [1, 0],
            [2, 5],
            [3, 50],
          ],
        },
      ],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('T &lt;1&gt;');
    expect(svg).toContain('(log scale)');
    // The point with y = 0 cannot sit on a log axis: left out, not drawn at -Infinity.
    expect(svg).not.toContain('NaN');
    expect(svg).not.toContain('Infinity');
  });
});

describe('tracking delay matching', () => {
  const runs: SeededRun[] = [
    {
      runId: 'r1',
      threadKey: 'slack:T1:C1:1.1',
      platform: 'slack',
      title: 'One',
      state: 'QUEUED',
      updatedAt: '2024-01-01T00:00:00Z',
      createdAt: 0,
      statusRefId: 'C1:1.2',
    },
    {
      runId: 'r2',
      threadKey: 'github:o/r#1',
      platform: 'github',
      title: 'Two',
      state: 'INPROGRESS',
      updatedAt: '2024-01-01T00:00:00Z',
      createdAt: 0,
      statusRefId: 'issue:9',
    },
  ];

  it('pairs each change with the first later edit that shows its state', () => {
    const delays = matchReceipts({
      runs,
      changes: [
        { runId: 'r1', state: 'PENDING', at: 1000 },
        { runId: 'r1', state: 'CLAIMED', at: 2000 },
        { runId: 'r1', state: 'INPROGRESS', at: 9000 },
        { runId: 'r2', state: 'BLOCKED', at: 1000 },
      ],
      receipts: [
        { refId: 'C1:1.2', at: 900, text: '⏳ One: Waiting for a machine' }, // before the change: not it
        { refId: 'C1:1.2', at: 2600, text: '🛫 One: Getting ready' },
        { refId: 'issue:9', at: 4000, text: '| State | ✋ Waiting for input (`BLOCKED`) |' },
        { refId: 'C1:9.9', at: 9100, text: '🏃 One: Running' }, // another message
      ],
    });
    // PENDING was overtaken by CLAIMED before any edit showed it; INPROGRESS never arrived.
    expect(delays).toEqual({ slack: [600], github: [3000], missing: 1, superseded: 1 });
  });
});

describe('first-sign runs of one latency', () => {
  const row = (over: Partial<PhaseRow>): PhaseRow => ({
    createLatencyMs: 1_000,
    rate: 10,
    durationMs: 30_000,
    sent: 3,
    accepted: 3,
    errors: 0,
    ack: summarize([1, 2, 3]),
    seen: summarize([10, 20, 30]),
    firstMessage: summarize([15, 25, 35]),
    seenDelivered: 3,
    firstMessageDelivered: 3,
    createdPerSecond: 10,
    created: 3,
    inboxDepthAtEnd: 0,
    outboxDepthAtEnd: 0,
    withoutRunAtEnd: 0,
    loopLagP99Ms: 12,
    loopLagMaxMs: 20,
    waitedMs: 100,
    ...over,
  });

  it('merges runs: latencies over all, a floor run between two of them once, the worst of the rest', () => {
    const floorA = [1, 1, 2];
    const shared = [1, 2, 4];
    const floorC = [2, 2, 2];
    const runs: PhaseRun[] = [
      {
        row: row({
          ack: summarize([1, 2, 4]),
          createdPerSecond: 9.5,
          withoutRunAtEnd: 2,
          cpuMsPerMention: 18,
          gcMsPerMention: 1,
        }),
        ack: [1, 2, 4],
        seen: [10, 20, 30],
        firstMessage: [15, 25, 35],
        floorRuns: [floorA, shared],
      },
      {
        row: row({
          ack: summarize([2, 3, 8]),
          errors: 1,
          loopLagMaxMs: 31,
          cpuMsPerMention: 22,
          gcMsPerMention: 2,
        }),
        ack: [2, 3, 8],
        seen: [11, 21, Number.POSITIVE_INFINITY],
        firstMessage: [16, 26, 36],
        floorRuns: [shared, floorC],
      },
    ];
    const merged = mergeRuns(runs);
    expect(merged.repeats).toBe(2);
    expect(merged.ack).toEqual(summarize([1, 2, 4, 2, 3, 8]));
    expect(merged.floor.n).toBe(9); // three floor runs, the shared one once
    expect(merged.floor).toEqual(summarize([...floorA, ...shared, ...floorC]));
    expect(merged.ackRatios).toEqual([4 / 4, 8 / 4]);
    expect(merged.seen.max).toBe(Number.POSITIVE_INFINITY);
    expect(merged.sent).toBe(6);
    expect(merged.errors).toBe(1);
    expect(merged.createdPerSecond).toBe(9.5);
    expect(merged.withoutRunAtEnd).toBe(2);
    expect(merged.loopLagMaxMs).toBe(31);
    expect(merged.cpuMsPerMention).toBe(20); // the mean of the runs
    expect(merged.gcMsPerMention).toBe(1.5);
    // A run without the figure (results from before it was taken): none for the latency.
    const older = mergeRuns([runs[0] as PhaseRun, { ...(runs[1] as PhaseRun), row: row({}) }]);
    expect(older.cpuMsPerMention).toBeUndefined();
    expect(older.gcMsPerMention).toBeUndefined();
  });

  it('turns counters in seconds into ms per mention, summed over their series', () => {
    const minor = 'nodejs_gc_duration_seconds_sum{kind="minor"}';
    const major = 'nodejs_gc_duration_seconds_sum{kind="major"}';
    // A kind first seen after the load began (prom-client shows it after its first collection).
    expect(
      msPerMention({ [minor]: 0.1 }, { [minor]: 0.3, [major]: 0.05 }, [minor, major], 100),
    ).toBeCloseTo(2.5, 10);
    expect(msPerMention({}, { other: 1 }, [minor, major], 100)).toBeUndefined();
    expect(msPerMention({ [minor]: 0.1 }, { [minor]: 0.2 }, [minor], 0)).toBeUndefined();
  });
});
