/**
 * The Markdown tables, one per scenario (printed and saved), made from a BenchResults (fresh,
 * or merged with earlier runs of other scenarios), and the targets' verdicts.
 */
import type { FloorResult } from '../scenarios/floor.js';
import type { IngestResult } from '../scenarios/ingest.js';
import type { PhaseResult } from '../scenarios/ingest-phase.js';
import type { ScaleoutResult } from '../scenarios/scaleout.js';
import type { TrackingResult } from '../scenarios/tracking.js';
import { LADDER_REFINE_STEPS, REFINE_GRAIN, totalCalls } from './capacity.js';
import type { Ladder } from './capacity.js';
import { describeMachine } from './machine.js';
import { formatNumber, markdownTable, verdict } from './markdown.js';
import type { Cell } from './markdown.js';
import type { BenchResults, Stamped } from './results.js';
import { median } from './stats.js';
import type { Summary } from './stats.js';
import { checkTargets } from './targets.js';

const MB = 1_000_000;
/** JSON turns Infinity into null: both mean "never within the wait". */
const ms = (v: number | null, never = 'never') =>
  v === null || !Number.isFinite(v) ? never : formatNumber(v, v < 10 ? 2 : 1);
const sec = (v: number | null, never = 'never') =>
  v === null || !Number.isFinite(v) ? never : formatNumber(v / 1000, 2);
const pct = (s: Summary, never?: string): Cell[] => [
  ms(s.p50, never),
  ms(s.p95, never),
  ms(s.p99, never),
];

const lagMs = (p: PhaseResult) => (p.service?.nodejs_eventloop_lag_p99_seconds ?? NaN) * 1000;

export function ingestTables(r: IngestResult): string {
  const main = markdownTable(
    [
      'offered/s#',
      'floor p50 ms#',
      'floor p95#',
      'floor p99#',
      'relay p50 ms#',
      'relay p95#',
      'relay p99#',
      'p99 ÷ floor#',
      'errors relay/floor',
      'answered/s relay/floor',
      'relay loop delay p99 ms#',
      'relay inbox queued#',
    ],
    r.rows.map((row) => {
      const ours = r.phases.filter((p) => p.target === 'ours' && p.rate === row.rate);
      return [
        row.rate,
        ...pct(row.floor),
        ...pct(row.ours),
        `${formatNumber(row.p99Ratio, 2)}×`,
        `${row.oursErrors}/${row.floorErrors}`,
        `${formatNumber(row.oursAchieved, 0)}/${formatNumber(row.floorAchieved, 0)}`,
        median(ours.map((p) => lagMs(p))),
        median(ours.map((p) => p.service?.agent_relay_inbox_depth ?? NaN)),
      ];
    }),
  );
  const ladder = r.max.ladder.length
    ? '\n\n' +
      markdownTable(
        [
          'offered/s#',
          'answered/s#',
          'errors#',
          'relay p50 ms#',
          'p95#',
          'p99#',
          'loop delay p99 ms#',
          'inbox queued#',
          'outbox queued#',
        ],
        r.max.ladder.map((p) => [
          p.rate,
          formatNumber(p.achievedRate, 0),
          p.errorCount,
          ...pct(p.latency.all),
          lagMs(p),
          p.service?.agent_relay_inbox_depth,
          p.service?.agent_relay_outbox_depth,
        ]),
      )
    : '';
  const f = r.max.floorAtMax;
  const max =
    r.max.sustainableRate === undefined
      ? 'No offered rate met the sustainability criterion.'
      : `Highest sustainable rate found: **${r.max.sustainableRate} events/s** (${r.max.criterion}).` +
        (f
          ? ` The floor at that rate: p50 ${ms(f.latency.all.p50)} ms, p99 ${ms(f.latency.all.p99)} ms.`
          : '');
  const note =
    '"loop delay": the service\'s event-loop delay p99 during the load; "queued": triggers ' +
    '(inbox) and notifications (outbox) still waiting when the load stopped.';
  return `${main}\n\n${max}${ladder}\n\n${note}`;
}

const MODE_NAMES: Record<TrackingResult['runs'][number]['mode'], string> = {
  batch: 'batch',
  'batch-progress-off': 'batch, progress off',
  'per-run': 'per-run',
  'per-run-fixed': 'per-run, no back-off',
};

export function trackingTables(r: TrackingResult): string {
  const table = markdownTable(
    [
      'live runs#',
      'mode',
      'req/min#',
      'list/min#',
      'detail/min#',
      'progress/min#',
      'changes#',
      'delay p50 s#',
      'p95 s#',
      'p99 s#',
      'Slack p95 s#',
      'GitHub p95 s#',
      'not shown#',
    ],
    r.runs.map((x) => [
      x.n,
      MODE_NAMES[x.mode],
      formatNumber(x.requestsPerMinute, 0),
      formatNumber(x.listPerMinute, 0),
      formatNumber(x.detailPerMinute, 0),
      formatNumber(x.progressPerMinute ?? 0, 0),
      x.changes,
      sec(x.delay.p50),
      sec(x.delay.p95),
      sec(x.delay.p99),
      sec(x.delaySlack.p95, '–'),
      sec(x.delayGithub.p95, '–'),
      x.missing,
    ]),
  );
  const ratios = [...new Set(r.runs.map((x) => x.n))].flatMap((n) => {
    const rpm = (mode: string) =>
      r.runs.find((x) => x.n === n && x.mode === mode)?.requestsPerMinute;
    // The batch tracker's cost of the states alone: progress reads have their own budget.
    const batch = r.runs.find((x) => x.n === n && x.mode === 'batch');
    const b = batch === undefined ? undefined : (batch.statePerMinute ?? batch.requestsPerMinute);
    if (b === undefined) return [];
    return (['per-run', 'per-run-fixed'] as const).flatMap((mode) => {
      const p = rpm(mode);
      return p === undefined ? [] : [`N=${n} ${MODE_NAMES[mode]}: ${formatNumber(p / b, 1)}×`];
    });
  });
  return (
    `${table}\n\nRequests relative to the batch tracker: ${ratios.join('; ')}. ` +
    `Each run changes state on average every ${formatNumber(r.perRunMeanIntervalMs / 60_000, 1)} min ` +
    `(a Poisson process over all runs); POLL_INTERVAL_MS=${r.pollIntervalMs}; ` +
    `${Math.round(r.githubShare * 100)}% of the threads are GitHub issues, the rest Slack threads. ` +
    '"per-run, no back-off" polls every run every POLL_INTERVAL_MS: per-run polling at the ' +
    'batch tracker\'s delay. "progress/min": reads of what the agent did: its steps (conversation, ' +
    'timeline, and in batch mode the run details the progress poller needs), within ' +
    'PROGRESS_READS_PER_MINUTE, and one conversation read for each run that ends or waits (its ' +
    'final words); "batch, progress off" is the same tracker without the steps. "not shown": changes whose message had not arrived by the end of ' +
    'the wait (counted as infinitely late).'
  );
}

export function renderMarkdown(
  results: BenchResults,
  options: { targets?: boolean; headingLevel?: number } = {},
): string {
  const out: string[] = [];
  const s = results.scenarios;
  const h = '#'.repeat(options.headingLevel ?? 3);
  const header = (name: string, st: Stamped<unknown>) => {
    const after = st.loadAverageAfter ? `, ${st.loadAverageAfter.join(' / ')} at the end` : '';
    const minutes = formatNumber(st.durationMs / 60_000, 1);
    return (
      `${h} ${name}\n\n_${st.quick ? 'Quick run' : 'Full run'} of ${st.ranAt} (${minutes} min) on ` +
      `${describeMachine(st.machine)}${after}._`
    );
  };
  if (s.ingest)
    out.push(header('Ingest: acknowledgement latency', s.ingest), ingestTables(s.ingest.result));
  if (s.tracking)
    out.push(header('Tracking: cost and delay', s.tracking), trackingTables(s.tracking.result));
  if (s.footprint) {
    const f = s.footprint.result;
    const runnerName = (r: 'tsx' | 'compiled') =>
      r === 'tsx' ? 'npm start (tsx)' : 'node dist/cli.js';
    out.push(
      header('Footprint', s.footprint),
      markdownTable(
        [
          'runner',
          'tracked threads#',
          'RSS MB (median)#',
          'RSS MB (max)#',
          'heap used MB#',
          'heap total MB#',
          'idle RSS MB#',
        ],
        f.held.map((h) => [
          runnerName(h.runner),
          f.threads,
          h.rssBytes / MB,
          h.rssMaxBytes / MB,
          (h.metrics.nodejs_heap_size_used_bytes ?? NaN) / MB,
          (h.metrics.nodejs_heap_size_total_bytes ?? NaN) / MB,
          (f.idleRssBytes[h.runner] ?? NaN) / MB,
        ]),
      ),
      '',
      markdownTable(
        ['start → /readyz 200', 'database', 'median s#', 'samples s'],
        f.ready.map((r) => [
          runnerName(r.runner),
          r.database === 'empty' ? 'empty' : `${f.threads} tracked threads`,
          sec(r.medianMs),
          r.samplesMs.map((x) => sec(x)).join(', '),
        ]),
      ),
    );
  }
  if (s.e2e) {
    const rows = s.e2e.result.rows;
    out.push(
      header('End to end: trigger → first status message, under the ingest load', s.e2e),
      markdownTable(
        [
          'offered/s#',
          'events',
          'runs#',
          'Slack p50 ms#',
          'p95#',
          'p99#',
          'Slack delivered#',
          'GitHub p50 ms#',
          'p95#',
          'p99#',
          'GitHub delivered#',
        ],
        rows.map((r) => {
          const never = `> ${formatNumber(r.waitedMs / 1000, 0)} s`;
          const github: Cell[] =
            r.githubAccepted > 0
              ? [...pct(r.github, never), `${r.githubDelivered}/${r.githubAccepted}`]
              : ['–', '–', '–', '–'];
          return [
            r.rate,
            r.mix === 'slack' ? 'Slack only' : 'half Slack, half GitHub',
            r.repeats,
            ...pct(r.slack, never),
            `${r.slackDelivered}/${r.slackAccepted}`,
            ...github,
          ];
        }),
      ),
      '"delivered": first status messages received within the wait after the load ' +
        '(the rest count as later than the wait).',
    );
  }
  if (s.scaleout)
    out.push(
      header('Scale-out: replicas on one PostgreSQL', s.scaleout),
      scaleoutTables(s.scaleout.result),
    );
  const first = s['first-sign'];
  if (first) {
    const r = first.result;
    out.push(
      header('First sign: what a person sees while the service is slow to create', first),
      markdownTable(
        [
          'create latency s#',
          'ack p50 ms#',
          'ack p99 ms#',
          'floor ack p99 ms#',
          'ack p99 / floor#',
          'ack p99 / floor, each run',
          '👀 p50 ms#',
          '👀 p95 ms#',
          'first message p50 ms#',
          'first message p95 ms#',
          'runs created/s#',
          'inbox at end#',
          'no run yet at end#',
          'outbox at end#',
          'loop lag p99 ms#',
          'loop lag max ms#',
          'CPU ms per mention#',
          'GC ms per mention#',
          'errors#',
        ],
        r.rows.map((row) => [
          row.createLatencyMs / 1000,
          row.ack.p50,
          row.ack.p99,
          row.floor.p99,
          row.ack.p99 / row.floor.p99,
          row.ackRatios?.map((r) => formatNumber(r, 2)).join(' · ') ?? '–',
          row.seen.p50,
          row.seen.p95,
          row.firstMessage.p50,
          row.firstMessage.p95,
          row.createdPerSecond,
          row.inboxDepthAtEnd,
          row.withoutRunAtEnd,
          row.outboxDepthAtEnd,
          row.loopLagP99Ms,
          row.loopLagMaxMs,
          row.cpuMsPerMention ?? '–',
          row.gcMsPerMention ?? '–',
          row.errors,
        ]),
      ),
      `Slack mentions at ${r.rate}/s for ${formatNumber(r.durationMs / 1000, 0)} s, each in its own ` +
        `thread; the service's create call held for the given time by a proxy in front of the ` +
        `emulator. ${runsOf(r.rows[0]?.repeats)} of each latency, in turn with the others; the ` +
        `figures are over all of a latency's runs (runs created/s: the slowest run; what is left ` +
        `at the end and loop lag: the highest). Times are from when a mention was due to when the ` +
        `fake Slack received the call. Floor: the bare framework (signature check + 200) at the ` +
        `same rate, run before and after every run (the machine is shared; the floor run after ` +
        `one run is the one before the next), the requests of the floor runs around a latency's ` +
        `runs taken together. "each run": a run's ack p99 over the p99 of the two floor runs ` +
        `around it, which shows how far one run's ratio moves by itself. "loop lag": the ` +
        `service's event-loop delay during the load. "CPU per mention": the service process's ` +
        `CPU time during the load (all its threads, the kernel's share included) over the ` +
        `mentions sent, the mean of the runs; "GC per mention": the part of it the garbage ` +
        `collector's pauses took (V8's own figure, as prom-client reports it). "runs created/s": between the create ` +
        `latency after the first mention and as long after the last. "inbox at end": triggers ` +
        `open (claimed ones included) when the load ended; "no run yet": mentions whose run the ` +
        `service had not created then.`,
    );
  }
  if (s.floor)
    out.push(
      header('Floor: CPU per mention and capacity against a bare app', s.floor),
      floorTables(s.floor.result),
    );
  const linear = s['linear-first'];
  if (linear) {
    const r = linear.result;
    out.push(
      header('Linear: webhook → first activity while the service is slow to create', linear),
      markdownTable(
        [
          'create latency s#',
          'sessions#',
          'first activity p50 ms#',
          'p95 ms#',
          'p99 ms#',
          'max ms#',
          'delivered#',
          'over 10 s#',
          'first kind',
        ],
        r.rows.map((row) => [
          row.createLatencyMs / 1000,
          row.sent,
          row.firstActivity.p50,
          row.firstActivity.p95,
          row.firstActivity.p99,
          row.firstActivity.max,
          `${row.delivered}/${row.accepted}`,
          row.over10s,
          row.firstKinds.join(', ') || '–',
        ]),
      ),
      `Linear agent sessions opened at ${r.rate}/s for ${formatNumber(r.durationMs / 1000, 0)} s ` +
        `(signed \`created\` webhooks from the fake Linear API), the service's create call held ` +
        `for the given time by the proxy in front of the emulator. Times are from when a ` +
        `webhook was due to when the session's first activity reached the fake Linear API; ` +
        `Linear marks an agent unresponsive after 10 s, our goal is p99 ≤ 3 s.`,
    );
  }
  const teams = s['teams-first'];
  if (teams) {
    const r = teams.result;
    out.push(
      header('Teams: mention → first sign while the service is slow to create', teams),
      markdownTable(
        [
          'create latency s#',
          'mentions#',
          'first sign p50 ms#',
          'p95 ms#',
          'p99 ms#',
          'max ms#',
          'delivered#',
          'status card first#',
        ],
        r.rows.map((row) => [
          row.createLatencyMs / 1000,
          row.sent,
          row.firstSign.p50,
          row.firstSign.p95,
          row.firstSign.p99,
          row.firstSign.max,
          `${row.delivered}/${row.accepted}`,
          row.cards,
        ]),
      ),
      `Teams channel mentions at ${r.rate}/s for ${formatNumber(r.durationMs / 1000, 0)} s, ` +
        `each a new post (signed by the fake Bot Connector), the service's create call held for ` +
        `the given time by the proxy in front of the emulator. Times are from when a mention was ` +
        `due to when the first activity in its thread (the status card) reached the fake Bot ` +
        `Connector; our goal is p95 ≤ 1 s with a 3 s create.`,
    );
  }
  if (options.targets !== false) out.push(targetsSection(results, h));
  return `${out.join('\n\n')}\n`;
}

/** "One run", "3 runs": first-sign's repeats (results from before repeats had one). */
function runsOf(repeats: number | undefined): string {
  const n = repeats ?? 1;
  return n === 1 ? 'One run' : `${n} runs`;
}

export function scaleoutTables(r: ScaleoutResult): string {
  if (r.skipped) return `Skipped: ${r.skipped}.`;
  const base = r.tracking.find((t) => t.replicas === 1);
  const tables = [
    markdownTable(
      [
        'replicas#',
        'tracked runs#',
        'changes#',
        'requests/min#',
        '× one replica#',
        'delay p50 ms#',
        'p95#',
        'p99#',
        'not shown#',
      ],
      r.tracking.map((t) => [
        t.replicas,
        t.n,
        t.changes,
        t.requestsPerMinute,
        base ? formatNumber(t.requestsPerMinute / base.requestsPerMinute, 2) : '–',
        ...pct(t.delay),
        t.missing,
      ]),
    ),
    markdownTable(
      ['ingest: replicas#', 'offered/s#', 'answered/s#', 'errors#', 'ack p50 ms#', 'p95#', 'p99#'],
      r.ingest.map((i) => [
        i.replicas,
        i.offeredRate,
        i.answeredPerSecond,
        i.errors,
        ...pct(i.latency),
      ]),
    ),
  ];
  if (r.failover) {
    tables.push(
      markdownTable(
        ['failover: tracking replica SIGKILLed', 'ms#'],
        [
          ['until another replica holds the lease', r.failover.takeoverMs],
          ['(the lease: 4 × POLL_INTERVAL_MS, at least 3 s)', r.failover.leaseMs],
          ['first change after the kill → its message', ms(r.failover.firstChangeDelayMs)],
        ],
      ),
    );
  }
  if (r.capacity && r.capacity.length > 0) {
    const ladders = r.capacity.map((c) => ({
      label: c.replicas === 1 ? '1 replica' : `${c.replicas} replicas`,
      ladder: c,
    }));
    tables.push(
      ladderTable('capacity: replicas', ladders),
      capacityLine(
        ladders,
        r.capacityDurationMs ?? Number.NaN,
        ', Slack mentions each in its own thread, spread evenly over the replicas; CPU: ' +
          'the replicas together',
      ),
    );
  }
  const empty = r.history.find((x) => x.finishedRuns === 0);
  tables.push(
    markdownTable(
      [
        'history: finished runs + threads#',
        'seeded in s#',
        'ingest p50 ms#',
        'ingest p99 ms#',
        '× empty#',
        'tracker cycle ms#',
        '× empty#',
      ],
      r.history.map((x) => [
        x.finishedRuns,
        sec(x.seedMs),
        x.ingestP50Ms,
        x.ingestP99Ms,
        empty ? formatNumber(x.ingestP99Ms / empty.ingestP99Ms, 2) : '–',
        x.cycleMs,
        empty ? formatNumber(x.cycleMs / empty.cycleMs, 2) : '–',
      ]),
    ),
  );
  return (
    tables.join('\n\n') +
    `\n\nPOLL_INTERVAL_MS ${r.pollIntervalMs}; each tracked run changes state on average every ` +
    `${formatNumber(r.perRunMeanIntervalMs / 1000, 0)} s. Requests are every request the ` +
    'replicas sent to the Agent Run Service in the window (only the lease holder tracks).'
  );
}

export function targetsSection(results: BenchResults, h = '###'): string {
  const rows = checkTargets(results).map((c) => [c.target, c.measured, verdict(c.met)]);
  return `${h} Targets\n\n${markdownTable(['target', 'measured', 'verdict'], rows)}`;
}

/** The capacity ladders' rungs, one row each, labelled in the first column. */
function ladderTable(first: string, ladders: { label: string; ladder: Ladder }[]): string {
  return markdownTable(
    [
      first,
      'rate/s#',
      'first message p95 ms#',
      'first messages#',
      '👀 p95 ms#',
      'ack p99 ms#',
      'CPU ms per mention#',
      'errors#',
      'sustained',
    ],
    ladders.flatMap(({ label, ladder }) =>
      ladder.rungs.map((g) => [
        label,
        g.rate,
        ms(g.firstMessageP95),
        g.sent === undefined ? '–' : `${g.firstMessageDelivered ?? 0}/${g.sent}`,
        g.seenP95,
        g.ackP99,
        formatNumber(g.cpuMsPerMention, 2),
        g.errors,
        g.sustained ? 'yes' : 'no',
      ]),
    ),
  );
}

/** What the ladders' capacity means, up to the figures (`how`: more on the load, or ''). */
function capacityLine(
  ladders: { label: string; ladder: Ladder }[],
  durationMs: number,
  how: string,
): string {
  return (
    `Capacity (the highest rate with first message p95 ≤ 1 s, no errors, ` +
    `${formatNumber(durationMs / 1000, 0)} s per rate${how}): ` +
    ladders.map((l) => `${l.label} **${l.ladder.highest}/s**`).join(', ') +
    `. Past the first rate missed, up to ${LADDER_REFINE_STEPS} rates between it and the highest ` +
    `held (each halving the gap, a multiple of ${REFINE_GRAIN}) narrow the figure. "first ` +
    'messages": those that came within the wait after the load, of the mentions sent (the rest ' +
    'count as never).'
  );
}

const FLOOR_SUBJECTS = {
  bare: 'bare app (same outside work)',
  relay: 'agent-relay',
  baseline: 'agent-relay, baseline tree',
} as const;

/** "chat.update 2.6, reactions.add 1.0, …", most first. */
function describeCalls(calls: Record<string, number>): string {
  return Object.entries(calls)
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${formatNumber(n, 1)}`)
    .join(', ');
}

export function floorTables(r: FloorResult): string {
  const name = (x: keyof typeof FLOOR_SUBJECTS) => FLOOR_SUBJECTS[x];
  const parts = [
    markdownTable(
      [
        'subject',
        'runs#',
        'CPU ms per mention (median)#',
        'each run',
        'RSS peak MB#',
        '👀 p95 ms#',
        'first message p50 ms#',
        'first message p95 ms#',
        'ack p99 ms#',
        'errors#',
        'outside calls per mention#',
      ],
      r.rows.map((row) => [
        name(row.subject),
        row.runs,
        formatNumber(row.cpuMsPerMention, 2),
        row.cpuSamples.map((c) => formatNumber(c, 2)).join(' · '),
        row.rssPeakMb,
        row.seenP95,
        row.firstMessageP50,
        row.firstMessageP95,
        row.ackP99,
        row.errors,
        formatNumber(totalCalls(row.outsideCallsPerMention) ?? Number.NaN, 1),
      ]),
    ),
    `Slack mentions at ${r.rate}/s for ${formatNumber(r.durationMs / 1000, 0)} s, each in its own ` +
      `thread, the service's create held ${formatNumber(r.createLatencyMs / 1000, 1)} s; the ` +
      `subjects in turn` +
      (r.database === 'postgresql'
        ? '; agent-relay on PostgreSQL (a local server, a fresh database per run; the bare ' +
          'app on its SQLite file), so the ratio is not the target’s'
        : '') +
      `. CPU: the process's user + system time (all threads, from /proc) from ` +
      `the load's start until every first message and run arrived (and a second more for the ` +
      `last edits), over the mentions sent; agent-relay runs with its container's node options ` +
      `(each tree its own). RSS peak: sampled every 250 ms over the same time. **agent-relay ÷ bare app: ` +
      `${formatNumber(r.cpuRatio, 2)}×** (target ≤ 1.5×)` +
      (r.baselineCpuRatio !== undefined
        ? `; baseline tree (\`${r.baseline ?? ''}\`) ÷ this tree: ${formatNumber(r.baselineCpuRatio, 2)}×.`
        : '.'),
  ];
  const unfinished = r.rows.filter((row) => (row.unfinished ?? 0) > 0);
  if (unfinished.length > 0) {
    parts.push(
      '**Not comparable:** ' +
        unfinished
          .map((row) => `${row.unfinished} of ${row.runs} runs of ${name(row.subject)}`)
          .join(', ') +
        ' closed their window before every mention had its first message and its run (the ' +
        'drain time ran out), so their CPU per mention leaves out work still to come.',
    );
  }
  const calls = r.rows.filter((row) => row.outsideCallsPerMention !== undefined);
  if (calls.length > 0) {
    parts.push(
      'Outside calls per mention over the same time (Slack Web API methods and the Agent Run ' +
        "Service's routes, as the fakes and the emulator counted them): " +
        calls
          .map((row) => `${name(row.subject)}: ${describeCalls(row.outsideCallsPerMention ?? {})}`)
          .join('; ') +
        '.',
    );
  }
  if (r.ladder.length > 0) {
    const ladders = r.ladder.map((l) => ({ label: name(l.subject), ladder: l }));
    parts.push(ladderTable('subject', ladders), capacityLine(ladders, r.ladderDurationMs, ''));
  }
  return parts.join('\n\n');
}
