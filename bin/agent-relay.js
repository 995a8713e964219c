#!/usr/bin/env node
// The `agent-relay` command as npm links it (package.json "bin", so `npx agent-relay` in a
// clone). It runs the compiled CLI, dist/cli.js, once `npm run build` has made it, and
// otherwise the TypeScript source through tsx, so a fresh clone needs no build step. The
// container runs `node dist/cli.js` itself and does not ship this file.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const built = new URL('../dist/cli.js', import.meta.url);
let cli;
if (existsSync(built)) {
  cli = await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../src/cli.ts', import.meta.url).href);
}
if (typeof cli.runCli !== 'function') {
  process.stderr.write(
    `agent-relay: ${built.pathname} is from an older build; run \`npm run build\` again\n`,
  );
  process.exit(1);
}
cli.runCli(process.argv.slice(2));
