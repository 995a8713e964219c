/**
 * Correctly signed requests as Slack and GitHub send them: an Events API `app_mention`
 * (v0 signature over `v0:{ts}:{body}`) and an `issue_comment` webhook (`sha256=` HMAC of the
 * body), each with a unique delivery id and its own thread, so every one starts a run.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signGitHub, signSlack } from '../../src/fakes/sign-requests.js';
import { ROOT } from './processes.js';
import { BENCH_SECRETS } from './secrets.js';

export type Platform = 'slack' | 'github';

export interface SignedRequest {
  platform: Platform;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Where the run's first status message will appear: Slack thread_ts or `owner/repo#n`. */
  threadRef: string;
}

const fixture = JSON.parse(
  readFileSync(join(ROOT, 'test/github/fixtures/issue-comment-created.json'), 'utf8'),
) as {
  issue: Record<string, unknown>;
  comment: Record<string, unknown>;
  repository: { full_name: string };
};

export interface PayloadFactory {
  (i: number): SignedRequest;
}

/** Request `i` of a stream: even = Slack, odd = GitHub when `mix` is 'both'. */
export function createPayloadFactory(options: {
  mix: 'both' | Platform;
  botUserId: string;
  teamId: string;
}): PayloadFactory {
  const tag = randomUUID().slice(0, 8);
  const baseSec = 1_720_000_000;
  return (i) => {
    const platform = options.mix === 'both' ? (i % 2 === 0 ? 'slack' : 'github') : options.mix;
    return platform === 'slack' ? slackMention(i) : issueComment(i);
  };

  function slackMention(i: number): SignedRequest {
    const ts = `${baseSec + i}.000100`;
    const body = JSON.stringify({
      token: 'legacy-verification-token',
      team_id: options.teamId,
      api_app_id: 'A0000001',
      event: {
        type: 'app_mention',
        user: 'UALICE01',
        text: `<@${options.botUserId}> benchmark task ${i}: tidy the README`,
        ts,
        channel: 'CLOAD001',
        event_ts: ts,
        team: options.teamId,
        client_msg_id: randomUUID(),
      },
      type: 'event_callback',
      event_id: `EvB${tag}${i}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        { enterprise_id: null, team_id: options.teamId, user_id: options.botUserId, is_bot: true },
      ],
      is_ext_shared_channel: false,
    });
    return {
      platform: 'slack',
      path: '/slack/events',
      headers: {
        'content-type': 'application/json',
        ...signSlack(body, BENCH_SECRETS.slackSigningSecret),
      },
      body,
      threadRef: ts,
    };
  }

  function issueComment(i: number): SignedRequest {
    const number = i + 1;
    const repo = fixture.repository.full_name;
    const body = JSON.stringify({
      ...fixture,
      issue: { ...fixture.issue, number, html_url: `https://github.com/${repo}/issues/${number}` },
      comment: {
        ...fixture.comment,
        id: 3_000_000 + i,
        body: `@agent-relay benchmark task ${i}: tidy the README`,
        html_url: `https://github.com/${repo}/issues/${number}#issuecomment-${3_000_000 + i}`,
      },
    });
    return {
      platform: 'github',
      path: '/github/webhooks',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/bench',
        'x-github-event': 'issue_comment',
        'x-github-delivery': randomUUID(),
        'x-github-hook-id': '123456',
        'x-hub-signature-256': signGitHub(body, BENCH_SECRETS.githubWebhookSecret),
      },
      body,
      threadRef: `${repo}#${number}`,
    };
  }
}
