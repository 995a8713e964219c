/**
 * No Docker engine runs here, so this checks what can be checked without one: the stages,
 * and that every file, script and command the Dockerfile names exists in the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RUNTIME_NODE_OPTIONS } from '../../src/service/node-options.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../src/cli.js';
import { ROOT } from '../helpers/child-process.js';

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [op = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op.toUpperCase() === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ image: m?.[1] ?? '', name: m?.[2], instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

const dockerfile = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const pkg = z
  .object({ scripts: z.record(z.string(), z.string()), bin: z.record(z.string(), z.string()) })
  .parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const buildConfig = z
  .object({ compilerOptions: z.object({ rootDir: z.string(), outDir: z.string() }) })
  .parse(JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')));

const ops = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op);
const jsonArgs = (args: string) => z.array(z.string()).parse(JSON.parse(args));
const [build, runtime] = dockerfile;

/** dist/X.js in the image comes from src/X.ts through tsconfig.build.json. */
function sourceOf(distPath: string): string {
  const { rootDir, outDir } = buildConfig.compilerOptions;
  return distPath.replace(new RegExp(`^${outDir}/`), `${rootDir}/`).replace(/\.js$/, '.ts');
}

describe('Dockerfile', () => {
  it('has a build stage and a slim runtime stage, the runtime last, both on Node 24', () => {
    expect(dockerfile.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(build?.image).toMatch(/^node:24[\w.-]*$/);
    expect(runtime?.image).toMatch(/^node:24[\w.-]*-slim$/);
  });

  it('ships the Node that CI runs the whole test command on', () => {
    // .ci/run: `use_node N` puts Node N first on the PATH; `npm test` runs right after one.
    // (That package.json's engines accept it, and Node 22, is lockfile.test.ts run on each.)
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const tested = /^use_node (\d+)\nnpm ci\nnpm test$/m.exec(ci)?.[1];
    expect(tested, '.ci/run runs `npm ci` and `npm test` right after a `use_node N`').toBeDefined();
    for (const stage of [build, runtime]) {
      expect(stage?.image.split(':')[1]?.split('-')[0], stage?.image).toBe(tested);
    }
  });

  it('copies into the build stage only files that exist and are not ignored', () => {
    const copies = ops(build!, 'COPY').filter((c) => !c.args.startsWith('--from'));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) {
        expect(existsSync(join(ROOT, source)), `${source} exists`).toBe(true);
        expect(dockerignore, `${source} is not in .dockerignore`).not.toContain(source);
      }
    }
  });

  it('runs npm scripts that exist, and installs from the lockfile', () => {
    const runs = ops(build!, 'RUN').map((r) => r.args);
    expect(runs.some((r) => r.includes('npm ci'))).toBe(true);
    expect(existsSync(join(ROOT, 'package-lock.json'))).toBe(true);
    const scripts = runs.flatMap((r) => [...r.matchAll(/npm run (\S+)/g)].map((m) => m[1]!));
    expect(scripts).toContain('build');
    for (const script of scripts) expect(Object.keys(pkg.scripts)).toContain(script);
    expect(pkg.scripts.build).toContain('tsconfig.build.json');
  });

  it('the runtime copies from the build stage what the build produced', () => {
    const copies = ops(runtime!, 'COPY');
    expect(copies.every((c) => c.args.includes('--from=build'))).toBe(true);
    const copied = copies.map((c) => c.args.split(/\s+/).filter((p) => !p.startsWith('--'))[0]);
    expect(copied).toEqual(
      expect.arrayContaining([
        '/app/package.json',
        '/app/node_modules',
        `/app/${buildConfig.compilerOptions.outDir}`,
      ]),
    );
    expect(copied).not.toContain('/app/src');
  });

  it('runs the built CLI as a non-root user, with a health check and a data volume', () => {
    const cmd = jsonArgs(ops(runtime!, 'CMD')[0]!.args);
    expect(cmd).toEqual(['node', 'dist/cli.js', 'start']);
    expect(existsSync(join(ROOT, sourceOf(cmd[1]!)))).toBe(true);
    // The `agent-relay` bin runs this same compiled file once built (test/runtime/bin.test.ts).
    const bin = readFileSync(join(ROOT, pkg.bin['agent-relay']!), 'utf8');
    expect(bin).toContain(`new URL('../${cmd[1]}', import.meta.url)`);

    const user = ops(runtime!, 'USER')[0]?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);

    const health = ops(runtime!, 'HEALTHCHECK')[0]?.args ?? '';
    const healthCmd = jsonArgs(health.slice(health.indexOf('CMD') + 3).trim());
    expect(healthCmd).toEqual(['node', 'dist/cli.js', 'healthcheck']);
    expect(sourceOf(healthCmd[1]!)).toBe('src/cli.ts');

    const env = ops(runtime!, 'ENV')
      .map((e) => e.args)
      .join(' ');
    expect(env).toMatch(/DATABASE_URL=\/data\//);
    expect(ops(runtime!, 'VOLUME')[0]?.args).toContain('/data');
    expect(env).toMatch(/PORT=3000/);
    // The benchmarks run the compiled service with the same options (src/node-options.ts).
    expect(env).toContain(`NODE_OPTIONS=${RUNTIME_NODE_OPTIONS} `);
    expect(ops(runtime!, 'EXPOSE')[0]?.args).toBe('3000');
  });

  it("the health check's command asks /healthz of the service on PORT, as the image sets it", async () => {
    const health = ops(runtime!, 'HEALTHCHECK')[0]?.args ?? '';
    const [, , command] = jsonArgs(health.slice(health.indexOf('CMD') + 3).trim());
    const env = Object.fromEntries(
      ops(runtime!, 'ENV')
        .flatMap((e) => e.args.split(/\s+/))
        .map((pair) => pair.split('=') as [string, string]),
    );
    let status = 200;
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // HOST=0.0.0.0 in the image: the check asks loopback.
      const io = { out() {}, err() {}, env: { ...env, PORT: String(port), LOG_LEVEL: 'silent' } };
      expect(await main([command!], io)).toBe(0);
      status = 503;
      expect(await main([command!], io)).toBe(1);
      expect(seen).toEqual(['GET /healthz', 'GET /healthz']);
    } finally {
      server.close();
    }
  });

  it('.dockerignore keeps local state and installed modules out of the context', () => {
    for (const entry of ['node_modules', 'dist', 'data', '.env', '.git']) {
      expect(dockerignore).toContain(entry);
    }
  });
});
