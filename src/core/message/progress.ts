/**
 * What a running run's status message says the agent is doing (pure): the last few steps of
 * its conversation (title and state), or during set-up the timeline's events; and the
 * agent's own final words (its answer, or its question when BLOCKED). Only the work since
 * the latest request counts: a resumed run shows its new execution, not the one before.
 */
import type {
  Conversation,
  ConversationMessage,
  ConversationStep,
  Timeline,
} from '../conversation.js';
import { clip } from '../text.js';

export type StepState = 'running' | 'done' | 'failed';

export interface StepView {
  /** Plain text, e.g. "Run command: npm test". */
  title: string;
  state: StepState;
  /** The step's id in the conversation (the same step across reads). */
  id?: string;
  /** The action alone, e.g. "Run command", and its first detail, e.g. "npm test". */
  action?: string;
  parameter?: string;
}

/** How every platform marks a step, and says its state in words. */
export const STEP_MARK: Record<StepState, string> = { running: '⏳', done: '✅', failed: '❌' };
export const STEP_WORDS: Record<StepState, string> = {
  running: 'in progress',
  done: 'done',
  failed: 'failed',
};

export type ProgressView =
  | { kind: 'steps'; steps: StepView[] }
  /** Set-up so far, e.g. ["environment ready", "agent starting"]. */
  | { kind: 'setup'; events: string[] };

/** Steps a status message shows at most (the newest). */
export const SHOWN_STEPS = 3;
/** Characters of a step title. */
const TITLE_CHARS = 80;
/** Characters of the agent's final message kept (the renderers bound it again). */
export const AGENT_MESSAGE_CHARS = 2_500;

/** Every message in order, depth first (a nested step's messages where the step is). */
function messagesOf(steps: readonly ConversationStep[]): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  for (const step of steps) {
    out.push(...step.messages);
    out.push(...messagesOf(step.steps));
  }
  return out;
}

/** The messages after the latest request (the user's last message). */
function sinceLastRequest(conversation: Conversation): ConversationMessage[] {
  const all = messagesOf(conversation.steps);
  let start = 0;
  all.forEach((m, i) => {
    if (m.role === 'user') start = i + 1;
  });
  return all.slice(start);
}

function humanName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words === '' ? 'Step' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** The first short text detail of an action's input (a command, a query, a path). */
function detailOf(input: Record<string, unknown> | undefined): string | undefined {
  if (!input) return undefined;
  for (const key of ['command', 'query', 'path', 'paths', 'url', 'title', 'skill_path']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (Array.isArray(value)) {
      const strings = value.filter((v): v is string => typeof v === 'string');
      if (strings.length > 0) return strings.join(', ');
    }
  }
  return undefined;
}

function clipTitle(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), TITLE_CHARS);
}

function stepState(result: string | undefined): StepState {
  if (result === 'completed') return 'done';
  if (result === 'failed' || result === 'denied') return 'failed';
  return 'running';
}

/** The newest steps of the current execution, or undefined before the agent did anything. */
export function progressFromConversation(
  conversation: Conversation,
  max = SHOWN_STEPS,
): ProgressView | undefined {
  const actions: { id: string; title: string; action: string; parameter?: string }[] = [];
  const results = new Map<string, string>();
  for (const message of sinceLastRequest(conversation)) {
    for (const block of message.content) {
      if (block.type === 'action' && typeof block.id === 'string') {
        const name = humanName(block.name ?? block.category ?? '');
        const detail = detailOf(block.input);
        actions.push({
          id: block.id,
          title: clipTitle(detail ? `${name}: ${detail}` : name),
          action: name,
          ...(detail ? { parameter: clipTitle(detail) } : {}),
        });
      } else if (block.type === 'action_result' && typeof block.action_id === 'string') {
        results.set(block.action_id, block.state ?? '');
      }
    }
  }
  if (actions.length === 0) return undefined;
  return {
    kind: 'steps',
    steps: actions.slice(-max).map((a) => ({
      title: a.title,
      state: stepState(results.get(a.id)),
      id: a.id,
      action: a.action,
      ...(a.parameter ? { parameter: a.parameter } : {}),
    })),
  };
}

/**
 * The action a waiting run stopped at, unanswered (no result after it, nothing said after
 * it): what it waits to have approved, as a step title ("Run command: git push"). Undefined
 * when the run's last act was not such an action.
 */
export function pendingAction(conversation: Conversation): string | undefined {
  const blocks = sinceLastRequest(conversation)
    .filter((m) => m.role === 'assistant' || m.role === 'tool')
    .flatMap((m) => m.content)
    .filter((b) => b.type !== 'event' && (b.type !== 'text' || (b.text ?? '').trim() !== ''));
  const last = blocks.at(-1);
  if (last?.type !== 'action' || typeof last.id !== 'string') return undefined;
  const name = humanName(last.name ?? last.category ?? '');
  const detail = detailOf(last.input);
  return clipTitle(detail ? `${name}: ${detail}` : name);
}

/** Words for the set-up events a person cares about; the others are left out. */
const SETUP_WORDS: Record<string, string> = {
  oz_run_claimed: 'machine assigned',
  worker_container_ready: 'environment ready',
  shared_session_started: 'session open',
  agent_started: 'agent starting',
};

/** The current execution's set-up so far, or undefined when there is nothing to tell. */
export function progressFromTimeline(timeline: Timeline): ProgressView | undefined {
  const events = timeline.events;
  // The current execution: after the last event that ended one (or the newest execution id).
  let start = 0;
  events.forEach((e, i) => {
    if (/^oz_run_(done|blocked|cancelled|failed|errored)$/.test(e.event_type)) start = i + 1;
  });
  const words: string[] = [];
  for (const event of events.slice(start)) {
    const word = SETUP_WORDS[event.event_type];
    if (word !== undefined && !words.includes(word)) words.push(word);
  }
  return words.length === 0 ? undefined : { kind: 'setup', events: words };
}

/**
 * The agent's final words: its last text since the latest request, as it wrote it (Markdown),
 * bounded. Undefined when it said nothing (an error, a cancel). With `lastThing`, only when
 * nothing followed that text: a run waiting for an approval stopped at the action it wants
 * to take, and the text before that action is not its question.
 */
export function finalAgentMessage(
  conversation: Conversation,
  options: { lastThing?: boolean } = {},
): string | undefined {
  const messages = sinceLastRequest(conversation);
  const bounded = (text: string) =>
    text.length <= AGENT_MESSAGE_CHARS ? text : `${text.slice(0, AGENT_MESSAGE_CHARS - 1)}…`;
  const said = (b: ConversationMessage['content'][number]) =>
    b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '';
  if (options.lastThing) {
    // The last thing that happened, events aside: the agent's text, or else nothing to say.
    const lastIndex = messages.findLastIndex((m) =>
      m.content.some((b) => b.type !== 'event' && (b.type !== 'text' || said(b))),
    );
    const last = messages[lastIndex];
    if (last === undefined || last.role !== 'assistant') return undefined;
    const blocks = last.content.filter((b) => b.type !== 'event' && (b.type !== 'text' || said(b)));
    const afterLastAction = blocks.slice(blocks.findLastIndex((b) => b.type !== 'text') + 1);
    const text = afterLastAction.map((b) => b.text!.trim()).join('\n\n');
    return text === '' ? undefined : bounded(text);
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const text = message.content
      .filter(said)
      .map((b) => b.text!.trim())
      .join('\n\n');
    if (text === '') continue;
    return bounded(text);
  }
  return undefined;
}

/** A stable key of what a progress view shows: equal keys, nothing to edit. */
export function progressKey(progress: ProgressView | undefined): string {
  return progress === undefined ? '' : JSON.stringify(progress);
}
