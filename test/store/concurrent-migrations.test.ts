/**
 * Replicas started together on a fresh PostgreSQL database all migrate it: their migrations
 * run one replica at a time, inside one transaction each, so no replica's start fails on
 * another's half-created tables.
 */
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { createDatabase, startPostgres } from './postgres-server.js';

const server = await startPostgres().catch(() => undefined);
afterAll(async () => {
  await server?.stop();
});

it.skipIf(!server)(
  'four replicas starting at once on a fresh database all migrate it',
  async () => {
    const url = await createDatabase(server!.url, 'relay_concurrent_migrations');
    const opened = await Promise.allSettled(
      Array.from({ length: 4 }, () => openStore({ databaseUrl: url, poolSize: 2 })),
    );
    for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
    expect(opened.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
  },
);
