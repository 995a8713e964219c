/**
 * Summarise a V8 .cpuprofile (from --cpu-prof): self time by function and by package/file,
 * so a missed target can be traced to what the service spent its CPU on.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileEntry {
  name: string;
  selfMs: number;
  share: number;
}

/** The bench's compiled build lives under node_modules/.cache; it is our code all the same. */
const COMPILED = '/agent-relay-bench/dist/';

function ours(url: string): string | undefined {
  const compiled = url.indexOf(COMPILED);
  if (compiled >= 0) return `dist/${url.slice(compiled + COMPILED.length)}`;
  const src = url.indexOf('/src/');
  return src >= 0 && !url.includes('node_modules') ? url.slice(src + 1) : undefined;
}

function where(url: string): string {
  const mine = ours(url);
  if (mine !== undefined) return mine;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  return url === '' ? '(native/idle)' : url.replace(/^file:\/\//, '');
}

export interface ProfileSummary {
  /** Self time by function and by package/file. */
  byFunction: ProfileEntry[];
  byFile: ProfileEntry[];
  /**
   * Busy time (idle excluded) by the innermost agent-relay source file on the stack: which of
   * our modules the CPU worked for, libraries included (an async stack starts at the resumed
   * function, so this is the part of the service that resumed).
   */
  byOwner: ProfileEntry[];
  totalMs: number;
}

export function summarizeProfile(path: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000));
  const parent = new Map<number, number>();
  const nodes = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    nodes.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const owner = (id: number): string => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const mine = ours(nodes.get(cur)?.callFrame.url ?? '');
      if (mine !== undefined) return mine;
    }
    return '(no agent-relay frame: startup, timers, GC, libraries)';
  };
  const byOwner = new Map<string, number>();
  let busy = 0;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    total += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = where(url);
    const fn = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    if (functionName === '(idle)') continue;
    busy += ms;
    const who = owner(node.id);
    byOwner.set(who, (byOwner.get(who) ?? 0) + ms);
  }
  const rank = (m: Map<string, number>, of = total) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, selfMs]) => ({ name, selfMs, share: selfMs / of }));
  return {
    byFunction: rank(byFunction),
    byFile: rank(byFile),
    byOwner: rank(byOwner, busy),
    totalMs: total,
  };
}
