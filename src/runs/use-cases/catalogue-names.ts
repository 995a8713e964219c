/**
 * `env=` and `model=` by name (docs/usage.md, "Naming an environment or a model"): before
 * anything public is said or sent, each value (inline, personal or channel/repository default)
 * is looked up in the service's catalogue and replaced by the id it names. A name that matches
 * nothing, or several entries, is a mistake answered privately with the close names. When
 * the catalogue cannot be read, values are sent as given (the catalogue cache logs why).
 *
 * Where no environment applies and the request comes from a GitHub repository, the
 * environment whose repositories include that repository is proposed: one match is used
 * (and the status message says why); several are named, and none is guessed.
 */
import type { RunOptions } from '../../core/command/command.js';
import { describeNamed } from '../../core/catalogue-names.js';
import { problemText, resolveCatalogueValue } from '../../core/catalogue-check.js';
import type { AppliedSetting, MessageModel } from '../../core/message/message-model.js';
import { notice } from '../../core/message/render-model.js';
import type { Catalogue, CatalogueEnvironment } from '../../core/ports/index.js';
import type { TriggerJob } from './trigger-job.js';

export type NamesResolved =
  | { ok: true; options: RunOptions; applied: AppliedSetting[] }
  | { ok: false; message: MessageModel };

function repositoryOf(job: TriggerJob): string | undefined {
  return job.trigger.platform === 'github' ? job.trigger.context.issue?.repo : undefined;
}

/** The environments whose repositories include `repo` (case-insensitive, as GitHub names). */
export function environmentsFor(
  repo: string,
  environments: readonly CatalogueEnvironment[],
): CatalogueEnvironment[] {
  const wanted = repo.toLowerCase();
  return environments.filter((e) => e.repos.some((r) => r.toLowerCase() === wanted));
}

async function propose(
  catalogue: Catalogue,
  job: TriggerJob,
  options: RunOptions,
  applied: AppliedSetting[],
): Promise<{ options: RunOptions; applied: AppliedSetting[] }> {
  const repo = repositoryOf(job);
  if (repo === undefined || (options.env !== undefined && options.env !== '')) {
    return { options, applied };
  }
  const environments = await catalogue.environments();
  if (environments === undefined) return { options, applied };
  const matches = environmentsFor(repo, environments);
  if (matches.length === 0) return { options, applied };
  const replace = (setting: AppliedSetting) => applied.map((s) => (s.key === 'env' ? setting : s));
  if (matches.length === 1) {
    const env = matches[0]!;
    job.log.info({ env: env.id, repo }, 'environment proposed from the repository');
    return {
      options: { ...options, env: env.id },
      applied: replace({ key: 'env', value: describeNamed(env), source: 'repository' }),
    };
  }
  job.log.info({ candidates: matches.map((e) => e.id), repo }, 'several environments match');
  return {
    options,
    applied: replace({
      key: 'env',
      source: 'service',
      note: `several environments hold ${repo}: ${matches.map((e) => describeNamed(e)).join(', ')}; name one with env=…`,
    }),
  };
}

/**
 * `options` (the effective options) with env/model as ids, `applied` showing what was named;
 * or the private answer to a mistake. Without a catalogue, everything passes as given.
 */
export async function resolveNames(
  catalogue: Catalogue | undefined,
  job: TriggerJob,
  input: { options: RunOptions; applied: AppliedSetting[] },
): Promise<NamesResolved> {
  if (!catalogue) return { ok: true, ...input };
  const options: RunOptions = { ...input.options };
  let applied = input.applied;
  for (const key of ['env', 'model'] as const) {
    const given = options[key];
    if (given === undefined || given === '') continue;
    const source = applied.find((s) => s.key === key)?.source ?? 'inline';
    const resolved = await resolveCatalogueValue(catalogue, key, given);
    if (!resolved.ok) {
      job.log.info({ key, given, source }, 'a catalogue name did not resolve; nothing started');
      const mention = job.trigger.platform === 'github' ? job.actor : undefined;
      return {
        ok: false,
        message: notice('error', problemText(key, given, resolved, source), undefined, mention),
      };
    }
    options[key] = resolved.id;
    applied = applied.map((s) => (s.key === key ? { ...s, value: resolved.shown } : s));
  }
  return { ok: true, ...(await propose(catalogue, job, options, applied)) };
}
