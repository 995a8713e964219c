/**
 * Tracking delay: for each state change the emulator made, the first message edit that
 * shows the new state (Slack: the status message's fallback text ends in the state's label;
 * GitHub: the status comment names the state in a code span), received by the fake API.
 */
import { stateView } from '../../src/core/message/state-view.js';
import type { SeededRun, StateChange, TrackingDelays } from './backends-api.js';

export interface Receipt {
  /** The status message's ref id (`channel:ts` or `issue:<id>`). */
  refId: string;
  at: number;
  text: string;
}

function shows(platform: SeededRun['platform'], text: string, state: string): boolean {
  if (platform === 'github') return text.includes(`\`${state}\``);
  return text.endsWith(`: ${stateView(state).label}`);
}

export function matchReceipts(input: {
  runs: readonly SeededRun[];
  changes: readonly StateChange[];
  receipts: readonly Receipt[];
}): TrackingDelays {
  const byRef = new Map(input.runs.map((r) => [r.statusRefId, r]));
  const byRun = new Map<string, Receipt[]>();
  for (const receipt of input.receipts) {
    const run = byRef.get(receipt.refId);
    if (!run) continue;
    const list = byRun.get(run.runId) ?? [];
    list.push(receipt);
    byRun.set(run.runId, list);
  }
  for (const list of byRun.values()) list.sort((a, b) => a.at - b.at);
  const changesByRun = new Map<string, StateChange[]>();
  for (const c of input.changes) {
    const list = changesByRun.get(c.runId) ?? [];
    list.push(c);
    changesByRun.set(c.runId, list);
  }

  const result: TrackingDelays = { slack: [], github: [], missing: 0, superseded: 0 };
  const runsById = new Map(input.runs.map((r) => [r.runId, r]));
  for (const [runId, changes] of changesByRun) {
    const run = runsById.get(runId);
    if (!run) continue;
    changes.sort((a, b) => a.at - b.at);
    const receipts = byRun.get(runId) ?? [];
    changes.forEach((change, i) => {
      const hit = receipts.find(
        (r) => r.at >= change.at && shows(run.platform, r.text, change.state),
      );
      if (hit) result[run.platform].push(hit.at - change.at);
      else if (i < changes.length - 1) result.superseded += 1;
      else result.missing += 1;
    });
  }
  return result;
}
