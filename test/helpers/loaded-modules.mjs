/**
 * Preloaded into a child (`--import`): records the URL of every module the process loads and
 * writes them, one per line, to `LOADED_MODULES_FILE` when it exits. Node's own synchronous
 * module hooks (`module.registerHooks`), so nothing of the service is touched.
 */
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.LOADED_MODULES_FILE;
const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
if (file) process.on('exit', () => writeFileSync(file, [...loaded].join('\n')));
