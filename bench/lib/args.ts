/**
 * `npm run bench -- [scenario …] [--quick] [--results-dir DIR] [--charts-dir DIR]
 * [--profile] [--log-level LEVEL]`. No scenario named: all of them.
 */
export const SCENARIOS = [
  'ingest',
  'tracking',
  'footprint',
  'e2e',
  'first-sign',
  'floor',
  'linear-first',
  'teams-first',
  'scaleout',
] as const;
/** What runs when no scenario is named: scaleout needs PostgreSQL, so it is asked for by name. */
export const DEFAULT_SCENARIOS: readonly (typeof SCENARIOS)[number][] = [
  'ingest',
  'tracking',
  'footprint',
  'e2e',
  'first-sign',
  'floor',
  'linear-first',
  'teams-first',
];
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchArgs {
  scenarios: ScenarioName[];
  quick: boolean;
  /** Where the raw JSON (and the Markdown summary) go. */
  resultsDir: string;
  /** Where the SVG charts go; undefined: next to the results. */
  chartsDir?: string;
  /** Start the service with --cpu-prof (profiles land in the results dir). */
  profile: boolean;
  /** The service's LOG_LEVEL. */
  logLevel: string;
  /** Run nothing: render latest.md and the charts again from latest.json. */
  reportOnly: boolean;
  /** first-sign: seconds of load per phase instead of the settings' (a busy shared machine). */
  seconds?: number;
  /** tracking: only these numbers of live runs instead of the settings' (a busy shared machine). */
  sizes?: number[];
  /**
   * floor: the rate, create latency, repeats and ladder rates instead of the settings'; the
   * ladder rates and create latency are scaleout's capacity ladder's too.
   */
  rate?: number;
  createMs?: number;
  repeats?: number;
  rates?: number[];
  /** floor: also run the service from this source tree (a same-run A/B against a change). */
  baseline?: string;
  /** floor: the service's database is PostgreSQL (a fresh one per run) instead of SQLite. */
  postgres: boolean;
  help: boolean;
}

export class ArgsError extends Error {
  override readonly name = 'ArgsError';
  readonly code = 'invalid_arguments';
}

export const USAGE = `usage: npm run bench -- [${SCENARIOS.join('|')} …] [options]

  (no scenario)        run every scenario but scaleout (which needs PostgreSQL: name it)
  --quick              CI-sized run: tiny N, short windows, one repetition
  --results-dir DIR    raw JSON + Markdown summary (default bench/results)
  --charts-dir DIR     SVG charts (default: the results dir)
  --profile            start the service with --cpu-prof (profiles in the results dir)
  --log-level LEVEL    the service's LOG_LEVEL (default info)
  --report             run nothing; render latest.md and the charts from latest.json
  --seconds N          first-sign: N seconds of load per phase (default 30; quick 2);
                       floor: N seconds per run and per ladder rate (scaleout's ladder too)
  --sizes N[,N…]       tracking: only these numbers of live runs (default 100,1000,5000)
  --rate N             floor: mentions per second of the CPU comparison (default 30)
  --create-ms N        floor and scaleout's ladder: the service's create held N ms (default 0)
  --repeats N          floor: runs of each subject, in turn (default 3)
  --rates N[,N…]       floor and scaleout: the capacity ladder's rates (0: no ladder)
  --baseline DIR       floor: also run the service from the source tree in DIR (an A/B)
  --postgres           floor: agent-relay on a PostgreSQL database (needs initdb) instead
                       of SQLite; the bare app keeps its SQLite file
  --help               this text`;

export function parseArgs(argv: readonly string[], defaults: { resultsDir: string }): BenchArgs {
  const args: BenchArgs = {
    scenarios: [],
    quick: false,
    resultsDir: defaults.resultsDir,
    profile: false,
    logLevel: 'info',
    reportOnly: false,
    postgres: false,
    help: false,
  };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new ArgsError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
    const take = () => inline ?? value(i++, flag ?? arg);
    switch (flag) {
      case '--quick':
        args.quick = true;
        break;
      case '--results-dir':
        args.resultsDir = take();
        break;
      case '--charts-dir':
        args.chartsDir = take();
        break;
      case '--profile':
        args.profile = true;
        break;
      case '--log-level':
        args.logLevel = take();
        break;
      case '--report':
        args.reportOnly = true;
        break;
      case '--postgres':
        args.postgres = true;
        break;
      case '--seconds': {
        const seconds = Number(take());
        if (!Number.isFinite(seconds) || seconds < 1 || seconds > 600) {
          throw new ArgsError('--seconds needs a number of seconds from 1 to 600');
        }
        args.seconds = seconds;
        break;
      }
      case '--sizes': {
        const sizes = take()
          .split(',')
          .map((s) => Number(s.trim()));
        if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 100_000)) {
          throw new ArgsError('--sizes needs whole numbers of live runs from 1 to 100000');
        }
        args.sizes = sizes;
        break;
      }
      case '--rate':
      case '--create-ms':
      case '--repeats': {
        const n = Number(take());
        if (!Number.isInteger(n) || n < (flag === '--create-ms' ? 0 : 1) || n > 600_000) {
          throw new ArgsError(`${flag} needs a whole number`);
        }
        if (flag === '--rate') args.rate = n;
        else if (flag === '--create-ms') args.createMs = n;
        else args.repeats = n;
        break;
      }
      case '--rates': {
        const rates = take()
          .split(',')
          .map((x) => Number(x.trim()))
          .filter((n) => n !== 0);
        if (rates.some((n) => !Number.isInteger(n) || n < 1 || n > 10_000)) {
          throw new ArgsError('--rates needs whole numbers of mentions a second (0: no ladder)');
        }
        args.rates = rates;
        break;
      }
      case '--baseline':
        args.baseline = take();
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      default: {
        if (arg.startsWith('-')) throw new ArgsError(`unknown option ${arg}`);
        if (!(SCENARIOS as readonly string[]).includes(arg)) {
          throw new ArgsError(`unknown scenario "${arg}" (one of ${SCENARIOS.join(', ')})`);
        }
        const name = arg as ScenarioName;
        if (!args.scenarios.includes(name)) args.scenarios.push(name);
      }
    }
  }
  if (args.scenarios.length === 0) args.scenarios = [...DEFAULT_SCENARIOS];
  return args;
}
