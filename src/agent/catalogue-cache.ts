/**
 * The service's catalogue (environments and models) behind the core's `Catalogue` port, kept
 * for a minute: names are resolved on every command that names one, and on every start form
 * and App Home defaults form, so a burst of them asks the service once. A minute is short
 * enough that an environment someone just created is usable almost at once, and long enough
 * that the lists (which change when an admin edits them, not per run) cost one request a
 * minute at most. A failed read is remembered for a few seconds, logged, and answered with
 * `undefined`: the caller then sends the value as given, so a catalogue outage never blocks a
 * run.
 */
import type {
  CallOptions,
  Catalogue,
  CatalogueEnvironment,
  CatalogueModel,
  Clock,
  Logger,
} from '../core/ports/index.js';
import type { CloudEnvironment, ListModelsResponse } from './schemas.js';

/** How long a read list is used before the service is asked again. */
export const CATALOGUE_TTL_MS = 60_000;
/** How long a failed read is remembered, so an outage is not asked about on every command. */
export const CATALOGUE_FAILURE_TTL_MS = 10_000;
/** The catalogue is read before "Starting…": a short wait, no retries. */
export const CATALOGUE_CALL: CallOptions = { timeoutMs: 5_000, maxRetries: 0 };

export interface CatalogueSource {
  listEnvironments(options?: CallOptions): Promise<CloudEnvironment[]>;
  listModels(options?: CallOptions): Promise<ListModelsResponse>;
}

export function toCatalogueEnvironment(env: CloudEnvironment): CatalogueEnvironment {
  return {
    id: env.uid,
    name: env.config.name ?? '',
    repos: (env.config.github_repos ?? []).map((r) => `${r.owner}/${r.repo}`),
  };
}

export function toCatalogueModel(model: ListModelsResponse['models'][number]): CatalogueModel {
  return {
    id: model.id,
    name: model.display_name ?? '',
    ...(model.disable_reason ? { disabledReason: model.disable_reason } : {}),
  };
}

interface Entry<T> {
  value: T | undefined;
  until: number;
  pending?: Promise<T | undefined>;
}

function cached<T>(
  what: string,
  read: () => Promise<T>,
  deps: { clock: Clock; logger: Logger; ttlMs: number; failureTtlMs: number },
): () => Promise<T | undefined> {
  const entry: Entry<T> = { value: undefined, until: 0 };
  return () => {
    if (deps.clock.now() < entry.until) return Promise.resolve(entry.value);
    entry.pending ??= read()
      .then(
        (value) => {
          entry.value = value;
          entry.until = deps.clock.now() + deps.ttlMs;
          return value;
        },
        (err: unknown) => {
          deps.logger.warn(
            { err, catalogue: what },
            'catalogue unavailable; names are sent as given',
          );
          entry.value = undefined;
          entry.until = deps.clock.now() + deps.failureTtlMs;
          return undefined;
        },
      )
      .finally(() => {
        entry.pending = undefined;
      });
    return entry.pending;
  };
}

export function createCachedCatalogue(deps: {
  source: CatalogueSource;
  clock: Clock;
  logger: Logger;
  ttlMs?: number;
  failureTtlMs?: number;
}): Catalogue {
  const timing = {
    clock: deps.clock,
    logger: deps.logger,
    ttlMs: deps.ttlMs ?? CATALOGUE_TTL_MS,
    failureTtlMs: deps.failureTtlMs ?? CATALOGUE_FAILURE_TTL_MS,
  };
  const environments = cached(
    'environments',
    async () => (await deps.source.listEnvironments(CATALOGUE_CALL)).map(toCatalogueEnvironment),
    timing,
  );
  const models = cached(
    'models',
    async () => (await deps.source.listModels(CATALOGUE_CALL)).models.map(toCatalogueModel),
    timing,
  );
  return { environments, models };
}
