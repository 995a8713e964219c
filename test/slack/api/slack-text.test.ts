import { describe, expect, it } from 'vitest';
import {
  code,
  escapeMrkdwn,
  link,
  safeUrl,
  truncateMrkdwn,
  truncatePlain,
} from '../../../src/slack/render/mrkdwn.js';
import { mentionsUser, toPlainText, wordsForBot } from '../../../src/slack/api/slack-text.js';
import { normaliseApiUrl } from '../../../src/slack/api/web-client.js';
import { eachMapsTo } from '../../helpers/cases.js';

describe('toPlainText', () => {
  eachMapsTo(toPlainText, [
    ['<@U123>', '@U123'],
    ['<@U123|alice>', '@alice'],
    ['<#C123|general>', '#general'],
    ['<#C123>', '#C123'],
    ['<!here>', '@here'],
    ['<!subteam^S1|@devs>', '@devs'],
    ['<https://x.test/a>', 'https://x.test/a'],
    ['<https://x.test/a|the docs>', 'the docs (https://x.test/a)'],
    ['<mailto:a@b.test|a@b.test>', 'a@b.test'],
    ['a &lt;b&gt; &amp;amp; c', 'a <b> &amp; c'],
  ]);
});

describe('wordsForBot', () => {
  eachMapsTo(
    (input) => wordsForBot(input, 'UBOT'),
    [
      ['<@UBOT> fix it', 'fix it'],
      ['<@UBOT|agent-relay>: fix it', 'fix it'],
      ['can <@UBOT> fix it?', 'can fix it?'],
      ['<@UBOT> ask <@UOTHER> first', 'ask @UOTHER first'],
      ['<@UBOT> run this:\n```\n  indented\n```', 'run this:\n```\n  indented\n```'],
      ['<@UBOT>', ''],
    ],
  );

  it('strips a leading mention when the bot id is unknown', () => {
    expect(wordsForBot('<@UXYZ> go', undefined)).toBe('go');
  });

  it('knows whether a text mentions a user', () => {
    expect(mentionsUser('hi <@UBOT|bot>', 'UBOT')).toBe(true);
    expect(mentionsUser('hi <@UBOT2>', 'UBOT')).toBe(false);
  });
});

describe('mrkdwn', () => {
  it('escapes the three control characters', () => {
    expect(escapeMrkdwn('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
  });

  it('truncates without breaking an entity or a link', () => {
    expect(truncatePlain('abcdef', 4)).toBe('abc…');
    expect(truncateMrkdwn('ab &amp; cd', 6)).toBe('ab …');
    expect(truncateMrkdwn('see <https://x.test|x> now', 10)).toBe('see …');
    expect(truncateMrkdwn('short', 10)).toBe('short');
  });

  it('links only http(s) URLs and escapes what would end the link', () => {
    expect(link('https://x.test/a?b=1&c=2', 'A <b>')).toBe(
      '<https://x.test/a?b=1&amp;c=2|A &lt;b&gt;>',
    );
    expect(link('javascript:alert(1)', 'click')).toBe('click');
    expect(safeUrl('https://x.test/a|b')).toBe('https://x.test/a%7Cb');
    expect(code('a`b')).toBe("`a'b`");
  });

  it('normalises the Web API base', () => {
    expect(normaliseApiUrl(undefined)).toBe('https://slack.com/api/');
    expect(normaliseApiUrl('http://127.0.0.1:9999')).toBe('http://127.0.0.1:9999/api/');
    expect(normaliseApiUrl('https://proxy.test/slack/api')).toBe('https://proxy.test/slack/api/');
  });
});
