import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { matchReceipts } from '../../bench/children/match-receipts.js';
import type { SeededRun } from '../../bench/children/backends-api.js';
import { ArgsError, DEFAULT_SCENARIOS, parseArgs } from '../../bench/lib/args.js';
import { climbLadder, delaysFromDue, sustains } from '../../bench/lib/capacity.js';
import type { LadderRung, MentionRun } from '../../bench/lib/capacity.js';
import { runSpreadOpenLoop } from '../../bench/lib/load-generator.js';
import { machineInfo } from '../../bench/lib/machine.js';
import { markdownTable } from '../../bench/lib/markdown.js';
import { createPayloadFactory } from '../../bench/lib/payloads.js';
import { floorTables, scaleoutTables } from '../../bench/lib/report.js';
import type { BenchResults } from '../../bench/lib/results.js';
import { median, percentileOfSorted, summarize } from '../../bench/lib/stats.js';
import { lineChart } from '../../bench/lib/svg-chart.js';
import { checkTargets } from '../../bench/lib/targets.js';
import { mergeRuns, msPerMention } from '../../bench/scenarios/first-sign.js';
import type { PhaseRow, PhaseRun } from '../../bench/scenarios/first-sign.js';
import type { ScaleoutResult } from '../../bench/scenarios/scaleout.js';
import type { FloorResult, FloorRow } from '../../bench/scenarios/floor.js';

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
    expect(parseArgs(['floor', '--postgres'], defaults).postgres).toBe(true);
    expect(parseArgs(['floor'], defaults).postgres).toBe(false);
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

describe('the capacity ladder (floor, and scaleout on PostgreSQL)', () => {
  const mentions = (over: Partial<MentionRun>): MentionRun => ({
    sent: 100,
    errors: 0,
    cpuMsPerMention: 2,
    rssPeakMb: 90,
    ack: summarize([5, 10, 20]),
    seen: summarize([100, 200]),
    firstMessage: summarize([300, 400]),
    firstMessageDelivered: 100,
    created: 100,
    ...over,
  });

  it('holds a rate with first message p95 ≤ 1 s, no errors and acknowledgements under 3 s', () => {
    expect(sustains(mentions({}))).toBe(true);
    expect(sustains(mentions({ firstMessage: summarize([1_000]) }))).toBe(true);
    expect(sustains(mentions({ firstMessage: summarize([1_001]) }))).toBe(false);
    expect(sustains(mentions({ firstMessage: summarize([Number.POSITIVE_INFINITY]) }))).toBe(false);
    expect(sustains(mentions({ errors: 1 }))).toBe(false);
    expect(sustains(mentions({ ack: summarize([3_000]) }))).toBe(false);
  });

  it('climbs up to the first rate missed, narrows the gap below it and reports the highest held', async () => {
    const tried: number[] = [];
    const logged: number[] = [];
    const ladder = await climbLadder(
      [30, 60, 90, 120, 150],
      async (rate) => {
        tried.push(rate);
        return mentions({ firstMessage: summarize([rate * 10]) });
      },
      (rung) => logged.push(rung.rate),
    );
    // Up to the first rate missed, nothing above it; then the gap halved twice: 105 (missed),
    // then 100 (97.5 to the nearest 5, held: 1,000 ms is within the bound).
    expect(tried).toEqual([30, 60, 90, 120, 105, 100]);
    expect(logged).toEqual(tried);
    expect(ladder.highest).toBe(100);
    expect(ladder.rungs.map((g) => g.rate)).toEqual([30, 60, 90, 100, 105, 120]);
    expect(ladder.rungs.map((g) => g.sustained)).toEqual([true, true, true, true, false, false]);
    expect(ladder.rungs[5]).toMatchObject({ rate: 120, firstMessageP95: 1_200, errors: 0 });
    // A gap too narrow to halve on the grain of 5 is left as it is.
    const close: number[] = [];
    const near = await climbLadder(
      [10, 15, 20],
      async (rate) => {
        close.push(rate);
        return mentions({ firstMessage: summarize([rate * 80]) });
      },
      () => {},
    );
    expect(close).toEqual([10, 15]);
    expect(near.highest).toBe(10);
    // Nothing held: no rate below the first is tried, the capacity is 0.
    const none = await climbLadder(
      [30, 60],
      async () => mentions({ errors: 2 }),
      () => {},
    );
    expect(none.highest).toBe(0);
    expect(none.rungs.map((g) => g.rate)).toEqual([30]);
  });

  it('measures from when a mention was due, a thread never answered as never', () => {
    const d = delaysFromDue(
      [
        { platform: 'slack', threadRef: 'a', dueAt: 1_000 },
        { platform: 'slack', threadRef: 'b', dueAt: 1_000 },
        { platform: 'slack', threadRef: 'c', dueAt: 1_000 },
      ],
      new Map([
        ['a', 1_250],
        ['b', 990], // the fake's clock a little behind: no negative delay
      ]),
    );
    expect(d.delivered).toBe(2);
    expect(d.summary).toMatchObject({ n: 3, p50: 250, max: Number.POSITIVE_INFINITY });
    expect(d.summary.mean).toBe(Number.POSITIVE_INFINITY);
  });

  it('spreads one stream over several servers, each request a different thread', async () => {
    const servers = await Promise.all(
      [0, 1, 2].map(async () => {
        const seen: string[] = [];
        const server = createServer((req, res) => {
          let body = '';
          req.on('data', (c: Buffer) => (body += c.toString()));
          req.on('end', () => {
            seen.push((JSON.parse(body) as { event: { ts: string } }).event.ts);
            res.end('ok');
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        return { server, seen, url: `http://127.0.0.1:${port}` };
      }),
    );
    try {
      const runs = await runSpreadOpenLoop({
        urls: servers.map((s) => s.url),
        rate: 300,
        durationMs: 100,
        makeRequest: createPayloadFactory({ mix: 'slack', botUserId: 'UBOT', teamId: 'T1' }),
      });
      expect(runs.map((r) => r.offeredRate)).toEqual([100, 100, 100]);
      expect(servers.map((s) => s.seen.length)).toEqual([10, 10, 10]);
      const threads = runs.flatMap((r) => r.accepted.map((a) => a.threadRef));
      expect(new Set(threads).size).toBe(30);
      expect(new Set(servers.flatMap((s) => s.seen))).toEqual(new Set(threads));
    } finally {
      for (const s of servers) s.server.close();
    }
  });
});

describe('scaleout capacity in the report and the targets', () => {
  const rung = (rate: number, sustained: boolean): LadderRung => ({
    rate,
    sent: rate * 10,
    firstMessageDelivered: sustained ? rate * 10 : rate * 10 - 3,
    firstMessageP95: sustained ? 400 : 1_400,
    seenP95: 100,
    ackP99: 20,
    errors: 0,
    cpuMsPerMention: 3,
    sustained,
  });
  const scaleout = (capacity?: ScaleoutResult['capacity']): ScaleoutResult => ({
    pollIntervalMs: 2_000,
    perRunMeanIntervalMs: 600_000,
    tracking: [],
    ingest: [],
    history: [],
    ...(capacity ? { capacity, capacityDurationMs: 10_000 } : {}),
  });
  const capacity = [
    { replicas: 1, rungs: [rung(150, true), rung(200, false)], highest: 150 },
    { replicas: 3, rungs: [rung(150, true), rung(200, true), rung(250, false)], highest: 200 },
  ];
  const results = (result: ScaleoutResult, quick = false): BenchResults => ({
    schema: 2,
    scenarios: {
      scaleout: {
        ranAt: '2026-12-07T00:00:00.000Z',
        quick,
        machine: machineInfo(),
        durationMs: 60_000,
        result,
      },
    },
  });
  const target = (r: BenchResults) =>
    checkTargets(r).find((c) => c.target.startsWith('Capacity (PostgreSQL), one replica'));

  it("shows each replica count's rungs and its capacity", () => {
    const md = scaleoutTables(scaleout(capacity));
    expect(md).toMatch(
      /^\| capacity: replicas \| rate\/s \| first message p95 ms \| first messages \|/m,
    );
    expect(md).toMatch(/^\| 1 replica \| 200 \| 1,400 \| 1997\/2000 \|.*\| no \|$/m);
    expect(md).toMatch(/^\| 3 replicas \| 200 \| 400 \| 2000\/2000 \|.*\| yes \|$/m);
    expect(md).toContain('10 s per rate');
    expect(md).toContain('1 replica **150/s**, 3 replicas **200/s**');
    // A p95 that never came (JSON keeps Infinity as null), and rungs from before the counts.
    const never = { ...rung(30, false), firstMessageP95: null as unknown as number };
    const { sent: _s, firstMessageDelivered: _d, ...older } = rung(30, true);
    const odd = scaleoutTables(scaleout([{ replicas: 3, rungs: [older, never], highest: 30 }]));
    expect(odd).toMatch(/^\| 3 replicas \| 30 \| 400 \| – \|/m);
    expect(odd).toMatch(/^\| 3 replicas \| 30 \| never \| 297\/300 \|/m);
    // Results from before it was measured: no capacity table.
    expect(scaleoutTables(scaleout())).not.toContain('capacity: replicas');
  });

  it('judges one replica against 150 mentions/s and reports three', () => {
    expect(target(results(scaleout(capacity)))).toEqual({
      target: 'Capacity (PostgreSQL), one replica: ≥ 150 mentions/s with first message p95 ≤ 1 s',
      measured: '150/s (3 replicas: 200/s, reported only)',
      met: true,
    });
    const low = [{ replicas: 1, rungs: [rung(30, true), rung(60, false)], highest: 30 }];
    expect(target(results(scaleout(low)))).toMatchObject({ measured: '30/s', met: false });
    expect(target(results(scaleout(capacity), true))).toMatchObject({
      measured: 'not measured',
      met: undefined,
    });
    expect(target(results(scaleout()))).toMatchObject({ measured: 'not measured' });
  });
});

describe('the floor: CPU per mention against the bare app', () => {
  const row = (subject: FloorRow['subject'], cpu: number, unfinished?: number): FloorRow => ({
    subject,
    runs: 3,
    cpuMsPerMention: cpu,
    cpuSamples: [cpu, cpu, cpu],
    rssPeakMb: 100,
    ackP99: 5,
    seenP95: 10,
    firstMessageP95: 20,
    firstMessageP50: 10,
    errors: 0,
    ...(unfinished === undefined ? {} : { unfinished }),
  });
  const floor = (relay: FloorRow): FloorResult => ({
    rate: 60,
    durationMs: 60_000,
    createLatencyMs: 10_000,
    rows: [row('bare', 5), relay],
    cpuRatio: relay.cpuMsPerMention / 5,
    ladder: [],
    ladderDurationMs: 10_000,
  });
  const verdict = (r: FloorResult) =>
    checkTargets({
      schema: 2,
      scenarios: {
        floor: {
          ranAt: '2026-12-07T00:00:00.000Z',
          quick: false,
          machine: machineInfo(),
          durationMs: 60_000,
          result: r,
        },
      },
    }).find((c) => c.target.startsWith('CPU per mention'));

  it('judges the ratio when every window closed with all the work done (and older results)', () => {
    expect(verdict(floor(row('relay', 6, 0)))).toMatchObject({
      measured: '1.20× at 60/s, create held 10.0 s',
      met: true,
    });
    expect(verdict(floor(row('relay', 10)))).toMatchObject({ met: false });
    expect(floorTables(floor(row('relay', 6, 0)))).not.toContain('Not comparable');
  });

  it('gives no verdict when a window closed with runs still to come, and says why', () => {
    const r = floor(row('relay', 6, 2));
    expect(verdict(r)).toMatchObject({
      measured:
        '1.20× at 60/s, create held 10.0 s (not comparable: a window closed with runs still to come)',
      met: undefined,
    });
    expect(floorTables(r)).toContain(
      '**Not comparable:** 2 of 3 runs of agent-relay closed their window',
    );
  });

  it('leaves a run on PostgreSQL out of the targets, and its table says so', () => {
    const r: FloorResult = { ...floor(row('relay', 6, 0)), database: 'postgresql' };
    expect(verdict(r)).toMatchObject({ measured: 'not measured', met: undefined });
    expect(floorTables(r)).toContain('agent-relay on PostgreSQL');
    expect(floorTables(floor(row('relay', 6, 0)))).not.toContain('PostgreSQL');
  });
});
