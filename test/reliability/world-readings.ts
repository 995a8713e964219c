/**
 * What a world of fakes shows after a run of triggers, read the same way by the crash world
 * (one relay restarted) and the replica world (several relays on one database): the outcome
 * replies, the status messages posted and their final text, counted per trigger token.
 */
import type { FakeGitHub } from '../../src/fakes/github-rest-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { TOKEN } from './crash-triggers.js';

/** A status comment leads with its header line: "<state emoji> **agent-relay** …". */
export const isStatusComment = (body: string): boolean => /^\S+ \*\*agent-relay\*\* /u.test(body);

export interface WorldReadings {
  /** Replies that mention the requester (the final notices). */
  outcomes(): string[];
  statusPosts(): string[];
  /** The current text of every status message (Slack messages, GitHub status comments). */
  finalStatuses(): string[];
  countPerToken(texts: string[]): Record<string, number>;
}

export function worldReadings(slack: FakeSlackApi, github: FakeGitHub): WorldReadings {
  const isOutcome = (text: string) => text.startsWith('<@UALICE01> ');
  const slackPosts = () => slack.okCallsTo('chat.postMessage').map((c) => String(c.params.text));
  const ghBodies = () => [...github.comments.values()].map((c) => c.body);
  return {
    outcomes: () => [
      ...slackPosts().filter(isOutcome),
      ...ghBodies().filter((b) => b.startsWith('@alice ')),
    ],
    statusPosts: () => [
      ...slackPosts().filter((t) => !isOutcome(t) && TOKEN.test(t)),
      ...ghBodies().filter(isStatusComment),
    ],
    finalStatuses: () => [
      ...slack.messages
        .filter((m) => m.bot_id && !isOutcome(m.text) && TOKEN.test(m.text))
        .map((m) => m.text),
      ...ghBodies().filter(isStatusComment),
    ],
    countPerToken(texts) {
      const counts: Record<string, number> = {};
      for (const text of texts) {
        const token = TOKEN.exec(text)?.[1] ?? `?${text.slice(0, 40)}`;
        counts[token] = (counts[token] ?? 0) + 1;
      }
      return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    },
  };
}
