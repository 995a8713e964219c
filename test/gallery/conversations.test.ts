/**
 * The gallery's whole conversations (gallery/conversations.ts), recorded here from the real
 * relay against the emulator and the fakes as `npm run gallery` records them: every outcome on
 * both platforms, each said once. No message of a thread repeats another (beyond the run's
 * title and links), and each outcome has exactly one reply that tells the requester.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTCOMES, recordConversations, type Conversation } from '../../gallery/conversations.js';
import { conversationPage } from '../../gallery/conversation-html.js';
import { blockText, hasActions, repetitions } from '../helpers/repetition.js';
import { markersIn, sharedShortIds, visibleText, zeroDurations } from './picture-text.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'gallery', 'conversations');
let conversations: Conversation[] = [];

beforeAll(async () => {
  conversations = await recordConversations();
}, 90_000);

/** The public messages of the relay in a conversation, as a reader reads them. */
function botMessages(c: Conversation) {
  return c.messages
    .filter((m) => m.bot && !m.private)
    .map((m, i) => ({
      label: `message ${i + 1}`,
      text: m.slack ? `${m.slack.text}\n${blockText(m.slack.blocks)}` : (m.github?.body ?? ''),
      hasButtons: m.slack ? hasActions(m.slack.blocks) : false,
    }));
}

/** Replies that tell the requester something (they mention her); the card does not. */
const toRequester = (c: Conversation) =>
  botMessages(c).filter((m) => /^(?:<@U0ALICE01>|@alice\b)/.test(m.text));

/**
 * On GitHub who asked for changes and who approved is said as a notice (`ℹ️ @alice …`), not a
 * line that starts with the mention; the plans and the outcome are.
 */
const GITHUB_OUTCOME_WORDS: Record<string, RegExp[]> = {
  plan: [/plan is ready/i, /revised plan is ready/i, /succeeded/i],
};

const OUTCOME_WORDS: Record<string, RegExp[]> = {
  success: [/succeeded/i],
  failure: [/failed/i],
  cancel: [/cancelled/i],
  blocked: [/waiting for (your )?input/i],
  followup: [/waiting for (your )?input/i, /succeeded/i],
  plan: [
    /plan is ready/i,
    /asked for changes/i,
    /revised plan is ready/i,
    /approved the plan/i,
    /succeeded/i,
  ],
};

describe('the gallery’s conversations', () => {
  it('cover success, failure, cancel, BLOCKED, a follow-up and a plan review on Slack and on GitHub', () => {
    const names = conversations.map((c) => c.name).sort();
    const expected = OUTCOMES.flatMap((o) => [`slack-${o}`, `github-${o}`]).sort();
    expect(names).toEqual(expected);
    for (const c of conversations) {
      // From the first message (the person's) to the end, with the relay's answers in between.
      expect(c.messages[0]?.bot).toBe(false);
      expect(c.messages.filter((m) => m.bot).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('no message repeats another message of its thread (beyond the title and links)', () => {
    expect(conversations.length).toBeGreaterThan(0);
    for (const c of conversations) {
      // A revised plan is the plan again, changed: each version is checked against every
      // other message of the thread, not against the other versions.
      const all = botMessages(c);
      const isPlan = (m: { text: string }) => /plan is ready for review/i.test(m.text);
      const rest = all.filter((m) => !isPlan(m));
      // A plan's answers are its own buttons, as the card has its own: not a second card.
      const plans = all.filter(isPlan).map((m) => ({ ...m, hasButtons: false }));
      const found = [
        ...new Set(
          (plans.length === 0 ? [rest] : plans.map((p) => [...rest, p])).flatMap((thread) =>
            repetitions(thread, { titles: c.titles, runIds: c.runIds }),
          ),
        ),
      ];
      expect({ conversation: c.name, found }).toEqual({ conversation: c.name, found: [] });
    }
  });

  it('tells the requester each outcome once, in one line that points at the card', () => {
    for (const c of conversations) {
      const told = toRequester(c);
      const words =
        (c.platform === 'github' && GITHUB_OUTCOME_WORDS[c.outcome]) || OUTCOME_WORDS[c.outcome]!;
      expect({ conversation: c.name, replies: told.length }).toEqual({
        conversation: c.name,
        replies: words.length,
      });
      words.forEach((word, i) => expect(told[i]?.text).toMatch(word));
    }
  });

  it('read like a team’s: no emulator marker, no run that took 0s, one run per short id', () => {
    for (const c of conversations) {
      const text = visibleText(conversationPage(c));
      expect({ conversation: c.name, markers: markersIn(text) }).toEqual({
        conversation: c.name,
        markers: [],
      });
      expect({ conversation: c.name, zero: zeroDurations(text) }).toEqual({
        conversation: c.name,
        zero: [],
      });
      expect(sharedShortIds(text)).toEqual([]);
    }
  });

  it('each has its page and picture in docs/gallery/conversations', () => {
    for (const c of conversations) {
      const page = conversationPage(c);
      expect(page).not.toMatch(/<script/i);
      expect(existsSync(join(DIR, `${c.name}.png`)), `${c.name}.png`).toBe(true);
    }
  });
});
