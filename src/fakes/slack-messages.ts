/**
 * The messages of the fake Slack workspace, kept as Slack keeps them: posts with their edit
 * history and reactions, ts values like Slack's (the posting time in microseconds, strictly
 * increasing), ephemeral messages apart (only their addressee sees them; no conversations.*
 * method lists them), and a listener told of every post, edit and reaction.
 */

export interface FakeMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: unknown[];
  user?: string;
  bot_id?: string;
  subtype?: string;
  /** Message metadata (chat.postMessage `metadata`), returned with `include_all_metadata`. */
  metadata?: { event_type: string; event_payload?: Record<string, unknown> };
  /** Every text/blocks this message had, oldest first (chat.update history). */
  history: { text: string; blocks?: unknown[] }[];
  reactions: string[];
  /** Ephemeral: only this user sees it. */
  onlyFor?: string;
}

export type SlackChange =
  | { kind: 'post' | 'update'; message: FakeMessage }
  | { kind: 'react' | 'unreact'; message: FakeMessage; reaction: string };

export type NewMessage = Omit<FakeMessage, 'ts' | 'history' | 'reactions'> & { ts?: string };

export interface SlackStore {
  /** What everyone in the channels sees, in the order it was posted. */
  readonly messages: FakeMessage[];
  readonly ephemerals: FakeMessage[];
  nextTs(): string;
  find(channel: string, ts: string): FakeMessage | undefined;
  /** Store a message (ephemeral when it has `onlyFor`), its first version in its history. */
  add(message: NewMessage): FakeMessage;
  /** The thread rooted at `ts` as its users see it: root, replies and ephemerals, oldest first. */
  thread(channel: string, ts: string): FakeMessage[];
  /** Messages as conversations.replies/history return them (`oldest`, `include_all_metadata`). */
  listed(list: FakeMessage[], params: Record<string, unknown>): Record<string, unknown>[];
  emit(change: SlackChange): void;
  onChange(listener: (change: SlackChange) => void): void;
}

/** Order of two Slack ts values (`seconds.micros`). */
export function compareTs(a: string, b: string): number {
  const [aSec = '', aFrac = ''] = a.split('.');
  const [bSec = '', bFrac = ''] = b.split('.');
  return Number(aSec) - Number(bSec) || Number(aFrac.padEnd(6, '0')) - Number(bFrac.padEnd(6, '0'));
}

export function createSlackStore(now: () => number): SlackStore {
  const messages: FakeMessage[] = [];
  const ephemerals: FakeMessage[] = [];
  const listeners: ((change: SlackChange) => void)[] = [];
  let lastMicros = 0;
  const nextTs = () => {
    lastMicros = Math.max(lastMicros + 1, Math.floor(now() * 1000));
    return `${Math.floor(lastMicros / 1e6)}.${String(lastMicros % 1e6).padStart(6, '0')}`;
  };
  const inThread = (channel: string, ts: string) => (m: FakeMessage) =>
    m.channel === channel && (m.ts === ts || m.thread_ts === ts);

  return {
    messages,
    ephemerals,
    nextTs,
    find: (channel, ts) => messages.find((m) => m.channel === channel && m.ts === ts),
    add({ ts, ...fields }) {
      const message: FakeMessage = { ...fields, ts: ts ?? nextTs(), history: [], reactions: [] };
      message.history.push({
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
      (message.onlyFor === undefined ? messages : ephemerals).push(message);
      return message;
    },
    thread: (channel, ts) =>
      [...messages.filter(inThread(channel, ts)), ...ephemerals.filter(inThread(channel, ts))].sort(
        (a, b) => compareTs(a.ts, b.ts),
      ),
    listed(list, params) {
      const oldest = typeof params.oldest === 'string' ? params.oldest : undefined;
      const withMetadata =
        params.include_all_metadata === true || params.include_all_metadata === 'true';
      return list
        .filter((m) => oldest === undefined || compareTs(m.ts, oldest) >= 0)
        .map(({ history: _h, reactions: _r, onlyFor: _o, metadata, ...m }) =>
          withMetadata && metadata ? { ...m, metadata } : m,
        );
    },
    emit: (change) => listeners.forEach((listener) => listener(change)),
    onChange: (listener) => void listeners.push(listener),
  };
}
