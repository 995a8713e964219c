/** With --profile: a short Markdown summary of every service profile written in a run. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable } from './markdown.js';
import { summarizeProfile } from './profile-summary.js';

/** Each process directory's largest profile (the main thread; tsx's loader thread is small). */
export function summarizeProfiles(dir: string, top = 12): string {
  const parts: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
  } catch {
    return '';
  }
  for (const name of names.sort()) {
    const files = readdirSync(join(dir, name))
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(dir, name, f))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    const main = files[0];
    if (!main) continue;
    const s = summarizeProfile(main, top);
    const rows = (xs: typeof s.byFile) =>
      xs.map((e) => [e.name, e.selfMs, `${(e.share * 100).toFixed(1)}%`]);
    parts.push(
      `#### ${name} (${main})\n\nSampled ${(s.totalMs / 1000).toFixed(1)} s. Self time by package/file:\n`,
      markdownTable(['where', 'self ms#', 'share#'], rows(s.byFile)),
      '\nBy function:\n',
      markdownTable(['function', 'self ms#', 'share#'], rows(s.byFunction)),
      '\nBusy time by the agent-relay module on the stack (share of busy time):\n',
      markdownTable(['module', 'ms#', 'share#'], rows(s.byOwner)),
    );
  }
  return parts.join('\n');
}
