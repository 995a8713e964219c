/**
 * `npm run bench -- [ingest|tracking|footprint|e2e|first-sign …] [--quick]`: runs the scenarios on
 * loopback against the real service process (the emulator as the Agent Run Service, local
 * fake Slack/GitHub APIs), prints one Markdown table per scenario, writes the raw figures as
 * JSON under bench/results/ (merged into latest.json), a Markdown summary and SVG charts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgsError, parseArgs, USAGE } from './lib/args.js';
import type { BenchArgs, ScenarioName } from './lib/args.js';
import type { ScenarioContext } from './lib/context.js';
import { machineInfo } from './lib/machine.js';
import type { MachineInfo } from './lib/machine.js';
import { ROOT, startBackends } from './lib/processes.js';
import { summarizeProfiles } from './lib/profiles.js';
import { renderCharts } from './lib/report-charts.js';
import { renderMarkdown, targetsSection } from './lib/report.js';
import { updateMarkedDocs } from './lib/update-docs.js';
import type { BenchResults } from './lib/results.js';
import { FULL, QUICK } from './lib/settings.js';
import type { BenchSettings } from './lib/settings.js';
import { runEndToEnd } from './scenarios/e2e.js';
import { runFirstSign } from './scenarios/first-sign.js';
import { runFloor } from './scenarios/floor.js';
import { runFootprint } from './scenarios/footprint.js';
import { runIngest } from './scenarios/ingest.js';
import { runLinearFirst } from './scenarios/linear-first.js';
import { runScaleout } from './scenarios/scaleout.js';
import { runTeamsFirst } from './scenarios/teams-first.js';
import { runTracking } from './scenarios/tracking.js';

const ORDER: readonly ScenarioName[] = [
  'ingest',
  'e2e',
  'first-sign',
  'floor',
  'linear-first',
  'teams-first',
  'tracking',
  'footprint',
  'scaleout',
];

/** `--sizes`: tracking at these numbers of live runs only. */
function withSizes(settings: BenchSettings, sizes: number[] | undefined): BenchSettings {
  if (sizes === undefined) return settings;
  return { ...settings, tracking: { ...settings.tracking, sizes } };
}

/** `--seconds`: a shorter (or longer) first-sign load than the settings say. */
function withSeconds(settings: BenchSettings, seconds: number | undefined): BenchSettings {
  if (seconds === undefined) return settings;
  return { ...settings, firstSign: { ...settings.firstSign, durationMs: seconds * 1000 } };
}

/**
 * `--rate`, `--create-ms`, `--repeats`, `--rates`, `--seconds`: the floor's load, and its
 * ladder (scaleout's capacity climbs the same one).
 */
function withFloor(settings: BenchSettings, args: BenchArgs): BenchSettings {
  const f = settings.floor;
  return {
    ...settings,
    floor: {
      ...f,
      rate: args.rate ?? f.rate,
      createLatencyMs: args.createMs ?? f.createLatencyMs,
      repeats: args.repeats ?? f.repeats,
      durationMs: args.seconds !== undefined ? args.seconds * 1000 : f.durationMs,
      ladder: {
        rates: args.rates ?? f.ladder.rates,
        durationMs: args.seconds !== undefined ? args.seconds * 1000 : f.ladder.durationMs,
      },
    },
  };
}

function log(line: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

async function runScenarios(args: BenchArgs, stamp: string): Promise<BenchResults['scenarios']> {
  const workDir = mkdtempSync(join(tmpdir(), 'agent-relay-bench-'));
  const backends = await startBackends();
  const ctx: ScenarioContext = {
    settings: withFloor(
      withSizes(withSeconds(args.quick ? QUICK : FULL, args.seconds), args.sizes),
      args,
    ),
    quick: args.quick,
    backends,
    workDir,
    logLevel: args.logLevel,
    ...(args.profile ? { profileDir: join(args.resultsDir, 'profiles', stamp) } : {}),
    ...(args.baseline ? { baseline: args.baseline } : {}),
    ...(args.postgres ? { postgres: true } : {}),
    log,
  };
  const fresh: BenchResults['scenarios'] = {};
  /** When and where a scenario started (the load average at its start), and how long it took. */
  const stampOf = <T>(start: { at: number; machine: MachineInfo }, result: T) => ({
    ranAt: new Date(start.at).toISOString(),
    quick: args.quick,
    machine: start.machine,
    durationMs: Date.now() - start.at,
    loadAverageAfter: machineInfo().loadAverage,
    result,
  });
  try {
    for (const name of ORDER.filter((n) => args.scenarios.includes(n))) {
      log(`scenario ${name}${args.quick ? ' (quick)' : ''}…`);
      const started = { at: Date.now(), machine: machineInfo() };
      if (name === 'ingest') fresh.ingest = stampOf(started, await runIngest(ctx));
      if (name === 'e2e')
        fresh.e2e = stampOf(started, await runEndToEnd(ctx, fresh.ingest?.result));
      if (name === 'tracking') fresh.tracking = stampOf(started, await runTracking(ctx));
      if (name === 'footprint') fresh.footprint = stampOf(started, await runFootprint(ctx));
      if (name === 'scaleout') fresh.scaleout = stampOf(started, await runScaleout(ctx));
      if (name === 'first-sign') fresh['first-sign'] = stampOf(started, await runFirstSign(ctx));
      if (name === 'floor') fresh.floor = stampOf(started, await runFloor(ctx));
      if (name === 'linear-first')
        fresh['linear-first'] = stampOf(started, await runLinearFirst(ctx));
      if (name === 'teams-first') fresh['teams-first'] = stampOf(started, await runTeamsFirst(ctx));
      const only: BenchResults = { schema: 2, scenarios: { [name]: fresh[name] } };
      process.stdout.write(`\n${renderMarkdown(only, { targets: false })}\n`);
    }
  } finally {
    await backends.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  return fresh;
}

function readLatest(path: string): BenchResults | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as BenchResults;
    return parsed.schema === 2 ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function main(argv: string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseArgs(argv, { resultsDir: join(ROOT, 'bench/results') });
  } catch (err) {
    if (!(err instanceof ArgsError)) throw err;
    process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const prefix = args.quick ? 'quick-' : '';
  // A quick run, or one into another results dir (an A/B, a scratch run), leaves docs/ alone.
  const ownResults = args.resultsDir === join(ROOT, 'bench/results');
  const writesDocs = !args.quick && ownResults;
  const chartsDir = args.chartsDir ?? (writesDocs ? join(ROOT, 'docs') : args.resultsDir);
  mkdirSync(args.resultsDir, { recursive: true });
  mkdirSync(chartsDir, { recursive: true });

  const latestPath = join(args.resultsDir, `${prefix}latest.json`);
  const fresh = args.reportOnly ? {} : await runScenarios(args, stamp);
  if (!args.reportOnly) {
    const run: BenchResults = { schema: 2, scenarios: fresh };
    const file = join(args.resultsDir, `${prefix}${stamp}.json`);
    writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  }
  const merged: BenchResults = {
    schema: 2,
    scenarios: { ...readLatest(latestPath)?.scenarios, ...fresh },
  };
  writeFileSync(latestPath, `${JSON.stringify(merged, null, 2)}\n`);
  const markdown = renderMarkdown(merged);
  if (args.reportOnly) process.stdout.write(markdown);
  writeFileSync(join(args.resultsDir, `${prefix}latest.md`), markdown);
  for (const [file, svg] of Object.entries(renderCharts(merged))) {
    writeFileSync(join(chartsDir, `${prefix}${file}`), svg);
  }
  if (writesDocs) {
    const docs = [join(ROOT, 'docs', 'performance.md')];
    for (const file of updateMarkedDocs(docs, renderMarkdown(merged, { headingLevel: 3 }))) {
      log(`updated the generated tables in ${file}`);
    }
  }
  process.stdout.write(`\n${targetsSection(merged)}\n`);
  process.stdout.write(
    `\n(latest figures of every scenario, merged: ${latestPath}; charts in ${chartsDir})\n`,
  );
  if (args.profile && !args.reportOnly) {
    const summary = summarizeProfiles(join(args.resultsDir, 'profiles', stamp));
    writeFileSync(join(args.resultsDir, 'profiles', stamp, 'summary.md'), summary);
    process.stdout.write(`\n${summary}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
