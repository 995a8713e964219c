/**
 * Mass mentions and markup: a person's prompt and title
 * full of `<!channel>`, `<!here>`, `@everyone`, Slack link syntax, HTML and table-breaking
 * Markdown go through the whole service and the Agent Run Service (which echoes the title back
 * as service text); everything the bot then posts on Slack and GitHub is neutralised, while
 * the one legitimate mention (the requester, on the outcome) still works.
 */
import { describe, expect, it } from 'vitest';
import { safeUrl } from '../../src/slack/render/mrkdwn.js';
import type { SlackMessage } from '../../src/slack/render/render-blocks.js';
import { waitUntil } from '../helpers/wait-until.js';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { validGitHubBody } from './hostile-github.js';
import { relayPerTest } from '../helpers/relay.js';
import { githubProseProblems, slackMrkdwn, slackTokenProblems } from './render-checks.js';

const MARKUP =
  '<!channel> <!here> <!everyone> @everyone @here <@U0MALLORY> <#C0SECRET|secret> ' +
  '<https://evil.example/phish|click me> &lt;script&gt;alert(1)&lt;/script&gt; ' +
  '<img src=x onerror=alert(1)> | a | b | [x](javascript:alert(1)) **bold** @octocat ```';

const startRelay = relayPerTest();

describe('what the bot posts is neutralised', () => {
  it('Slack: status message, its edits and the outcome carry no mass mention or foreign link', async () => {
    const r = await startRelay();
    const title = 'title=" <!channel> @everyone <https://evil.example|x> <b>hi</b> "';
    const body = eventCallback(
      appMentionEvent({
        text: `<@UBOT0001> ${title} please [fail] ${MARKUP}`,
        ts: '1700000500.000100',
      }),
    );
    expect((await r.postSlack(body)).status).toBe(200);
    const run = await waitUntil(() => r.emulator.runs.all().find((x) => x.state === 'FAILED'), {
      timeoutMs: 10_000,
    });
    // The ingress already turns Slack syntax into plain words; the service echoes them back.
    expect(run.title).toContain('@channel @everyone');
    expect(run.prompt).toContain('@here');
    const outcome = await waitUntil(
      () =>
        r.slack
          .okCallsTo('chat.postMessage')
          .find((c) => String(c.params.text).includes('<@UALICE01>')),
      { timeoutMs: 10_000 },
    );
    expect(outcome).toBeDefined();
    const posted = [...r.slack.okCallsTo('chat.postMessage'), ...r.slack.okCallsTo('chat.update')];
    expect(posted.length).toBeGreaterThanOrEqual(3);
    const urls = new Set(
      r.emulator.runs
        .all()
        .flatMap((x) => [safeUrl(x.session_link ?? undefined)].filter((u) => u !== undefined)),
    );
    for (const call of posted) {
      const message = {
        text: String(call.params.text ?? ''),
        blocks: (call.params.blocks ?? []) as SlackMessage['blocks'],
      };
      const texts = slackMrkdwn(message);
      expect(texts.join('\n')).not.toMatch(/<!/);
      expect(
        slackTokenProblems(texts, { users: new Set(['UALICE01']), channels: new Set(), urls }),
      ).toEqual([]);
      // plain_text fields are not parsed by Slack; still, no link syntax leaks into a header.
      expect(JSON.stringify(call.params)).not.toContain('<https://evil.example');
    }
  });

  it('GitHub: status comment, its edits and the outcome carry no HTML, mention or script link', async () => {
    const r = await startRelay();
    const body = validGitHubBody(
      `@agent-relay title="@everyone <b>x</b> | y |" please [fail] ${MARKUP}`,
    );
    const res = await r.postGitHub(body, { event: 'issue_comment', deliveryId: 'neutralise-1' });
    expect(res.status).toBe(202);
    await waitUntil(() => r.emulator.runs.all().some((x) => x.state === 'FAILED'), {
      timeoutMs: 10_000,
    });
    const comments = await waitUntil(
      () => {
        const all = r.github.commentsOn('octo-org', 'widgets', 42);
        return all.some((c) => c.body.startsWith('@alice ')) ? all : undefined;
      },
      { timeoutMs: 10_000 },
    );
    const bodies = comments.flatMap((c) => [c.body, ...c.edits]);
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    for (const text of bodies) {
      expect(githubProseProblems(text, new Set(['alice']))).toEqual([]);
      expect(text).not.toMatch(/<(script|img|b)\b/i);
    }
  });
});
