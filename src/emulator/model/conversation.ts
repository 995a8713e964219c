/**
 * The conversation a run's agent has had so far, derived from the run's history on the
 * emulator's clock: each execution opens with the request (the prompt, or the follow-up that
 * resumed it), then its actions appear one by one while it is INPROGRESS, and an execution
 * that ended says its final message (a question when BLOCKED). Nothing is stored: asking
 * twice at the same time answers the same.
 */
import type { EmuRun, EmulatorTimings, RecordedFollowup } from './types.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The answer of the conversation route: a conversation, or why there is none. */
export type ConversationAnswer =
  | { kind: 'conversation'; body: Record<string, unknown> }
  | { kind: 'none' }
  | { kind: 'unsupported' };

interface Action {
  name: string;
  category: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

/** The work every emulated execution does, in order. */
const ACTIONS: Action[] = [
  {
    name: 'search_codebase',
    category: 'search',
    input: { query: 'where the change belongs' },
    output: { matches: 3 },
  },
  {
    name: 'edit_files',
    category: 'files',
    input: { paths: ['src/index.ts'] },
    output: { files_changed: 1 },
  },
  { name: 'run_command', category: 'command', input: { command: 'npm test' }, output: {} },
];

/**
 * What the agent says when an execution ends, by its outcome (none for ERROR/CANCELLED); each
 * later execution words it differently, as an agent would.
 */
const FINAL_WORDS: Record<string, string[]> = {
  SUCCEEDED: [
    'Done. I changed **src/index.ts** and opened a pull request.\n\n- `npm test` passes\n- No public API changed',
    'Finished the follow-up: the pull request now also covers **src/util.ts**, and `npm test` is green.',
  ],
  FAILED: [
    'I stopped after three attempts: `npm test` still fails in `src/index.test.ts`, and I could not find why.',
    'Still no luck: the fixture loads, but the assertion on line 42 keeps breaking.',
  ],
  BLOCKED: [
    'Should I keep the old function as a deprecated alias, or remove it outright? Tell me which and I will carry on.',
    'One more question before I go on: may I bump the minimum Node version in `package.json`?',
  ],
};

/** What the agent says before the action it waits to have approved (`[approval]`). */
const APPROVAL_WORDS = 'The branch is rebased; I will force-push it now.';

function finalWords(outcome: string | undefined, execution: number): string | undefined {
  const variants = outcome === undefined ? undefined : FINAL_WORDS[outcome];
  if (!variants) return undefined;
  return execution < variants.length
    ? variants[execution]
    : `Pass ${execution + 1} is over (${(outcome ?? '').toLowerCase()}); the details are in the session.`;
}

/** Markers that make a run's conversation absent or unsupported (tests of the fallback). */
export function conversationMarker(prompt: string): 'none' | 'unsupported' | undefined {
  const t = prompt.toLowerCase();
  if (t.includes('[noconvo]')) return 'none';
  if (t.includes('[harness]')) return 'unsupported';
  return undefined;
}

interface Execution {
  request: { text: string; at: number };
  startedAt?: number;
  endedAt?: number;
  outcome?: string;
}

/** The run's executions, from its history: each QUEUED entry opens one. */
function executions(run: EmuRun, followups: readonly RecordedFollowup[]): Execution[] {
  const mine = followups.filter((f) => f.runId === run.runId);
  const out: Execution[] = [];
  for (const entry of run.history) {
    if (entry.state === 'QUEUED' || out.length === 0) {
      const n = out.length;
      // The follow-up that resumed an ended run is the last one sent before it queued again.
      const resumedBy = n === 0 ? undefined : mine.filter((f) => f.at <= entry.at).at(-1);
      out.push({
        request: resumedBy
          ? { text: resumedBy.message, at: resumedBy.at }
          : { text: run.prompt, at: run.createdAt },
      });
      if (entry.state === 'QUEUED') continue;
    }
    const current = out[out.length - 1]!;
    if (entry.state === 'INPROGRESS') current.startedAt = entry.at;
    else if (current.startedAt !== undefined && current.endedAt === undefined) {
      if (!['QUEUED', 'PENDING', 'CLAIMED'].includes(entry.state)) {
        current.endedAt = entry.at;
        current.outcome = entry.state;
      }
    }
  }
  return out;
}

function executionStep(
  run: EmuRun,
  index: number,
  exec: Execution,
  slotMs: number,
  now: number,
): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [
    {
      role: 'user',
      timestamp: iso(exec.request.at),
      content: [{ type: 'text', text: exec.request.text }],
    },
  ];
  const start = exec.startedAt!;
  const end = exec.endedAt ?? Infinity;
  let last = start;
  ACTIONS.forEach((action, i) => {
    const shownAt = start + i * slotMs;
    if (shownAt > now || shownAt > end) return;
    const id = `${run.runId}-x${index}-a${i}`;
    messages.push({
      role: 'assistant',
      timestamp: iso(shownAt),
      content: [
        { type: 'action', id, category: action.category, name: action.name, input: action.input },
      ],
    });
    last = shownAt;
    const doneAt = Math.min(shownAt + slotMs, end);
    if (doneAt > now) return;
    const failed = exec.outcome === 'FAILED' && i === ACTIONS.length - 1;
    const cut = doneAt === end && exec.outcome !== undefined && exec.outcome !== 'SUCCEEDED';
    messages.push({
      role: 'tool',
      timestamp: iso(doneAt),
      content: [
        {
          type: 'action_result',
          action_id: id,
          category: action.category,
          name: action.name,
          state: failed ? 'failed' : cut && exec.outcome === 'CANCELLED' ? 'failed' : 'completed',
          output: failed ? { exit_code: 1 } : action.output,
        },
      ],
    });
    last = doneAt;
  });
  const approval =
    exec.outcome === 'BLOCKED' && exec.request.text.toLowerCase().includes('[approval]');
  const words = approval ? APPROVAL_WORDS : finalWords(exec.outcome, index);
  if (words !== undefined && exec.endedAt !== undefined && exec.endedAt <= now) {
    messages.push({
      role: 'assistant',
      timestamp: iso(exec.endedAt),
      content: [{ type: 'text', text: words }],
    });
    // Waiting for an approval: the action it wants to take comes after its words, unanswered.
    if (approval)
      messages.push({
        role: 'assistant',
        timestamp: iso(exec.endedAt),
        content: [
          {
            type: 'action',
            id: `${run.runId}-x${index}-approval`,
            category: 'command',
            name: 'run_command',
            input: { command: 'git push --force-with-lease' },
          },
        ],
      });
    last = exec.endedAt;
  }
  return {
    id: `${run.runId}-x${index}`,
    description: exec.request.text.slice(0, 200),
    started_at: iso(start),
    completed_at: iso(last),
    messages,
    steps: [],
  };
}

export function conversationOf(
  run: EmuRun,
  followups: readonly RecordedFollowup[],
  timings: EmulatorTimings,
  now: number,
): ConversationAnswer {
  const marker = conversationMarker(run.prompt);
  if (marker === 'none') return { kind: 'none' };
  if (marker === 'unsupported') return { kind: 'unsupported' };
  const started = executions(run, followups).filter((e) => e.startedAt !== undefined);
  // No agent has started yet: the run has no conversation (the published 404).
  if (started.length === 0) return { kind: 'none' };
  const slotMs = (run.script.slow ? timings.slowRunMs : timings.runMs) / (ACTIONS.length + 1);
  return {
    kind: 'conversation',
    body: {
      conversation_id: run.conversationId,
      steps: started.map((exec, i) => executionStep(run, i, exec, slotMs, now)),
    },
  };
}
