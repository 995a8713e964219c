/**
 * The scale-out bench's cluster: the backends (emulator, fake Slack and GitHub), N tracked runs
 * seeded in the emulator and the database, and replicas of the service on one PostgreSQL.
 */
import pg from 'pg';
import type { BackendsApi, BackendUrls, SeededRun } from '../children/backends-api.js';
import type { ScenarioContext } from '../lib/context.js';
import { waitFor200 } from '../lib/processes.js';
import type { ServiceProcess } from '../lib/processes.js';
import { seedStore } from '../lib/seed-store.js';
import { startServiceProcess } from '../lib/service-process.js';

export interface Cluster {
  urls: BackendUrls;
  databaseUrl: string;
  replicas: ServiceProcess[];
  stop(): Promise<void>;
}

export async function startCluster(
  ctx: ScenarioContext,
  databaseUrl: string,
  count: number,
  tracked: number,
  options: { backends?: Parameters<BackendsApi['start']>[0]; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const { rpc } = ctx.backends;
  const urls = await rpc.call('start', options.backends ?? {});
  if (tracked > 0) {
    const seeded: SeededRun[] = await rpc.call('seedTracked', {
      n: tracked,
      githubShare: 0.1,
      seed: tracked,
    });
    await seedStore(databaseUrl, seeded, { seed: tracked });
  }
  const replicas = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startServiceProcess({
        backends: urls,
        workDir: ctx.workDir,
        name: `scaleout-${count}-${i}-${Date.now()}`,
        databasePath: databaseUrl,
        pollIntervalMs: ctx.settings.scaleout.pollIntervalMs,
        logLevel: ctx.logLevel,
        ...(options.env ? { env: options.env } : {}),
      }),
    ),
  );
  await Promise.all(replicas.map((r) => waitFor200(r, '/readyz')));
  return {
    urls,
    databaseUrl,
    replicas,
    stop: async () => {
      await Promise.all(replicas.map((r) => r.stop()));
    },
  };
}

export async function leaseHolder(databaseUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ holder: string }>(
      'select holder from leases where name = $1 and lease_until > $2',
      ['tracker', Date.now()],
    );
    return rows.rows[0]?.holder;
  } finally {
    await client.end();
  }
}

/** Which replica took the lease named `holder` (its log says so). */
export async function replicaHolding(cluster: Cluster, holder: string): Promise<ServiceProcess> {
  const { readFileSync } = await import('node:fs');
  const found = cluster.replicas.find((r) =>
    readFileSync(r.logFile, 'utf8').includes(`"holder":"${holder}"`),
  );
  if (!found) throw new Error(`no replica logged taking the lease as ${holder}`);
  return found;
}
