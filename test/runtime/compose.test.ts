/**
 * No Docker engine runs here, so compose.yaml is checked for what can be checked without
 * one: the services, that both replicas reach the same PostgreSQL the database service
 * creates, that only the proxy publishes a port and that its configuration sends that port
 * to both replicas, and that every variable it sets is one the relay reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { CONFIG_VARIABLES } from '../../src/config/variables.js';
import { GITHUB_BODY_LIMIT_BYTES } from '../../src/core/ingress/body-limit.js';
import { parseDatabaseUrl } from '../../src/store/index.js';
import { ROOT } from '../helpers/child-process.js';

const service = z.object({
  image: z.string().optional(),
  build: z.string().optional(),
  environment: z.record(z.string(), z.string()).optional(),
  env_file: z.array(z.object({ path: z.string(), required: z.boolean() })).optional(),
  depends_on: z
    .union([z.array(z.string()), z.record(z.string(), z.object({ condition: z.string() }))])
    .optional(),
  ports: z.array(z.string()).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  configs: z.array(z.object({ source: z.string(), target: z.string() })).optional(),
  volumes: z.array(z.string()).optional(),
});
const compose = z
  .object({
    services: z.record(z.string(), service),
    configs: z.record(z.string(), z.object({ content: z.string() })),
    volumes: z.record(z.string(), z.unknown()),
  })
  .parse(parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')));

/** What Compose makes of `${NAME:-default}` and `$$` when nothing is set. */
function interpolate(text: string): string {
  return text
    .replace(/\$\{(\w+):-([^}]*)\}/g, (_m, _name: string, fallback: string) => fallback)
    .replace(/\$\$/g, '$');
}

const { services } = compose;
const relays = Object.keys(services).filter((name) => name.startsWith('relay-'));

describe('compose.yaml', () => {
  it('runs PostgreSQL, two replicas of the image built here, and a proxy', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'proxy', 'relay-1', 'relay-2']);
    expect(existsSync(join(ROOT, 'Dockerfile'))).toBe(true);
    for (const name of relays) expect(services[name]?.build).toBe('.');
    expect(services.postgres?.image).toMatch(/^postgres:\d+/);
    expect(services.proxy?.image).toMatch(/^nginx:/);
  });

  it('both replicas use the database the PostgreSQL service creates, once it is healthy', () => {
    const pgEnv = services.postgres?.environment ?? {};
    expect(services.postgres?.healthcheck?.test).toContain('pg_isready');
    expect(services.postgres?.volumes?.[0]).toMatch(/^postgres-data:/);
    expect(Object.keys(compose.volumes)).toContain('postgres-data');
    for (const name of relays) {
      const env = services[name]?.environment ?? {};
      const target = parseDatabaseUrl(interpolate(env.DATABASE_URL ?? ''));
      expect(target.kind).toBe('postgres');
      const url = new URL(target.kind === 'postgres' ? target.url : '');
      expect(url.hostname).toBe('postgres');
      expect(url.port).toBe('5432');
      expect(url.username).toBe(pgEnv.POSTGRES_USER);
      expect(url.pathname).toBe(`/${pgEnv.POSTGRES_DB}`);
      expect(decodeURIComponent(url.password)).toBe(interpolate(pgEnv.POSTGRES_PASSWORD ?? ''));
      expect(services[name]?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
      // Settings come from an optional .env; only variables the relay reads are set here.
      expect(services[name]?.env_file).toEqual([{ path: '.env', required: false }]);
      const known = new Set(CONFIG_VARIABLES.map((v) => v.name));
      for (const key of Object.keys(env)) expect(known.has(key), key).toBe(true);
    }
  });

  it('only the proxy publishes a port, and it sends that port to both replicas', () => {
    for (const name of ['postgres', ...relays]) expect(services[name]?.ports).toBeUndefined();
    const ports = services.proxy?.ports ?? [];
    expect(ports).toHaveLength(1);
    const [, inside] = (ports[0] ?? '').split(':');
    const mount = services.proxy?.configs?.[0];
    expect(mount?.target).toBe('/etc/nginx/conf.d/default.conf');
    const raw = compose.configs[mount?.source ?? '']?.content ?? '';
    // Compose interpolates `$name`: nginx's own variables must be written `$$name`.
    expect(raw.match(/(?<!\$)\$(?!\$)\w+/g) ?? []).toEqual([]);
    const nginx = interpolate(raw);
    expect(nginx).toContain(`listen ${inside};`);
    const upstream = /upstream (\w+) \{([^}]*)\}/.exec(nginx);
    const servers = [...(upstream?.[2] ?? '').matchAll(/server ([\w-]+):(\d+)/g)];
    expect(servers.map((m) => m[1]).sort()).toEqual(relays);
    for (const m of servers) {
      expect(m[2]).toBe(services[m[1] ?? '']?.environment?.PORT);
    }
    expect(nginx).toContain(`proxy_pass http://${upstream?.[1]};`);
    // The relay answers an oversized body itself (413), not the proxy.
    const max = /client_max_body_size (\d+)m;/.exec(nginx);
    expect(Number(max?.[1]) * 1024 * 1024).toBeGreaterThan(GITHUB_BODY_LIMIT_BYTES);
    expect(services.proxy?.depends_on).toEqual(relays);
  });

  it('the proxy does not publish /metrics', () => {
    const raw = compose.configs[services.proxy?.configs?.[0]?.source ?? '']?.content ?? '';
    const metrics = /location = \/metrics \{([^}]*)\}/.exec(interpolate(raw));
    expect(metrics?.[1]).toMatch(/^\s*return 404;\s*$/);
  });
});
