/**
 * `agent-relay doctor`: checks the configuration, the database, the Agent Run Service
 * (reachability and key), Slack and GitHub credentials, and prints a readable report.
 * Exit code 0 when nothing failed, 1 otherwise.
 */
import { ConfigError, loadConfig } from '../config/load.js';
import { doctorChecks } from './doctor-checks.js';
import type { CheckResult, DoctorCheck } from './doctor-checks.js';

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  /** Per-check time limit; default 8 s. */
  timeoutMs?: number;
  /** Replace the dependency checks (tests). */
  checks?: DoctorCheck[];
  /** Where the Teams bot's token is asked instead of the cloud's login endpoint (tests). */
  teamsLoginEndpoint?: string;
}

const MARK = { ok: '✔', fail: '✘', skip: '–' } as const;

export async function runDoctor(options: DoctorOptions): Promise<number> {
  const { out } = options;
  const timeoutMs = options.timeoutMs ?? 8_000;
  out('agent-relay doctor');
  let config;
  try {
    config = loadConfig(options.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    line(out, 'configuration', { status: 'fail', detail: `${err.issues.length} problem(s)` });
    for (const issue of err.issues) out(`      ${issue.variable}: ${issue.message}`);
    out('Fix the configuration first; the other checks need it.');
    return 1;
  }
  line(out, 'configuration', {
    status: 'ok',
    detail: config.notes.length ? `valid; ${config.notes.join('; ')}` : 'valid',
  });

  const counts = { ok: 1, fail: 0, skip: 0 };
  for (const check of options.checks ??
    doctorChecks(config, timeoutMs, {
      ...(options.teamsLoginEndpoint ? { teamsLoginEndpoint: options.teamsLoginEndpoint } : {}),
    })) {
    const result = await withTimeout(check, timeoutMs + 2_000);
    counts[result.status]++;
    line(out, check.name, result);
  }
  out(`${counts.ok} ok, ${counts.fail} failed, ${counts.skip} skipped`);
  return counts.fail > 0 ? 1 : 0;
}

function line(out: (line: string) => void, name: string, result: CheckResult): void {
  out(`  ${MARK[result.status]} ${name.padEnd(14)} ${result.detail}`);
}

async function withTimeout(check: DoctorCheck, ms: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check.run().catch((err: unknown) => ({
        status: 'fail' as const,
        detail: err instanceof Error ? err.message : String(err),
      })),
      new Promise<CheckResult>((resolve) => {
        timer = setTimeout(() => resolve({ status: 'fail', detail: `no answer in ${ms} ms` }), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
