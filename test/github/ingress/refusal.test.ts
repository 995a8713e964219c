import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxPayload } from '../../../src/core/ports/index.js';
import type { OpenedStore } from '../../../src/store/index.js';
import {
  createOutboxRefusalSink,
  refusalMessage,
  type Refusal,
} from '../../../src/github/ingress/refusal.js';
import { REFUSALS_PER_PLACE } from '../../../src/core/place.js';
import { createSqliteHarness, type SqliteHarness } from '../../store/harness.js';

let harness: SqliteHarness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

/** The sink on a real SQLite store; `failing` makes every outbox write fail. */
async function setup(options: { failing?: boolean } = {}) {
  harness = await createSqliteHarness();
  const store: OpenedStore = await harness.open();
  if (options.failing)
    await harness.exec(
      "create trigger no_outbox before insert on outbox begin select raise(abort, 'database is locked'); end;",
    );
  const wakes: number[] = [];
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const queued = async (): Promise<OutboxPayload[]> =>
    (await store.outboxQueue.list()).map((item) => item.payload);
  const sink = createOutboxRefusalSink({
    clock,
    windowMs: 60_000,
    onQueued: () => void wakes.push(wakes.length + 1),
    store,
  });
  return { sink, queued, clock, wakes, store };
}

const actor = { id: 'mallory', name: 'mallory', association: 'NONE' };
const refusal = (deliveryId: string, threadKey = 'github:o/r#1'): Refusal => ({
  deliveryId,
  threadKey,
  actor,
  message: refusalMessage(actor, ['OWNER', 'MEMBER', 'COLLABORATOR']),
});

describe('refusals', () => {
  it('wakes the outbox once a reply is queued, and not for a duplicate or a suppressed one', async () => {
    const { sink, wakes } = await setup();
    await sink.refuse(refusal('d1'));
    expect(wakes).toEqual([1]); // after the enqueue, not before
    await sink.refuse(refusal('d1'));
    await sink.refuse(refusal('d2'));
    expect(wakes).toEqual([1]);
    await sink.refuse(refusal('d3', 'github:o/r#2'));
    expect(wakes).toEqual([1, 2]);
  });

  it('does not wake the outbox when the reply could not be queued', async () => {
    const { sink, wakes } = await setup({ failing: true });
    await expect(sink.refuse(refusal('d1'))).rejects.toThrow('database is locked');
    expect(wakes).toEqual([]);
  });

  it('the message names who may trigger runs and mentions the person', () => {
    expect(refusalMessage(actor, ['OWNER', 'MEMBER', 'COLLABORATOR'])).toEqual({
      type: 'notice',
      tone: 'info',
      mention: { platform: 'github', id: 'mallory', name: 'mallory' },
      text:
        'Thanks for the request. Agent runs in this repository can be started, steered or ' +
        'cancelled only by the repository owner, members of the organization and collaborators. ' +
        'Please ask one of them to mention me for you.',
    });
    expect((refusalMessage(actor, ['OWNER']) as { text: string }).text).toContain(
      'only by the repository owner.',
    );
  });

  it('queues one post per person and thread per window, in the low lane; redeliveries are duplicates', async () => {
    const { sink, queued, clock } = await setup();
    expect(await sink.refuse(refusal('d1'))).toBe('queued');
    expect(await queued()).toEqual([
      {
        kind: 'post',
        destination: { threadKey: 'github:o/r#1' },
        message: refusal('d1').message,
        lane: 'low',
      },
    ]);
    expect(await sink.refuse(refusal('d1'))).toBe('duplicate');
    expect(await sink.refuse(refusal('d2'))).toBe('suppressed');
    expect(await sink.refuse(refusal('d3', 'github:o/r#2'))).toBe('queued');
    clock.advance(60_001);
    expect(await sink.refuse(refusal('d4'))).toBe('queued');
    expect(await queued()).toHaveLength(3);
  });

  it('40 outsiders in one repository get REFUSALS_PER_PLACE posts in the window, then silence; another repository is not held', async () => {
    const { sink, queued, clock } = await setup();
    const outcomes: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      const who = { id: `outsider-${i}`, name: `outsider-${i}`, association: 'NONE' };
      outcomes.push(
        await sink.refuse({
          deliveryId: `crowd-${i}`,
          threadKey: `github:o/r#${i + 1}`,
          actor: who,
          message: refusalMessage(who, ['MEMBER']),
        }),
      );
    }
    expect(outcomes.filter((o) => o === 'queued')).toHaveLength(REFUSALS_PER_PLACE);
    expect(await queued()).toHaveLength(REFUSALS_PER_PLACE);
    expect(await sink.refuse(refusal('elsewhere', 'github:o/other#1'))).toBe('queued');
    // A window later the repository may be told again.
    clock.advance(60_001);
    expect(await sink.refuse(refusal('later', 'github:o/r#99'))).toBe('queued');
  });

  it('remembers who was told in the store: another sink (a replica, a restart) does not tell again', async () => {
    const { sink, store, clock, queued } = await setup();
    expect(await sink.refuse(refusal('d1'))).toBe('queued');
    const replica = createOutboxRefusalSink({ clock, windowMs: 60_000, store });
    expect(await replica.refuse(refusal('d2'))).toBe('suppressed');
    expect(await queued()).toHaveLength(1);
  });

  it('a failed enqueue is not remembered, so a redelivery tries again', async () => {
    const { sink } = await setup({ failing: true });
    await expect(sink.refuse(refusal('d1'))).rejects.toThrow('database is locked');
    await expect(sink.refuse(refusal('d1'))).rejects.toThrow('database is locked');
  });
});
