/** The JWT Jira signs an OAuth app's webhooks with: only HS256 with the client secret, unexpired. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jiraWebhookJwt } from '../../src/fakes/jira-webhooks.js';
import { verifyJiraJwt } from '../../src/jira/index.js';

const SECRET = 'jira-oauth-client-secret-0123';
const NOW = Date.UTC(2026, 11, 6, 12);
const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function token(header: unknown, claims: unknown, secret = SECRET): string {
  const body = `${part(header)}.${part(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('verifyJiraJwt', () => {
  it('accepts the HS256 token signed with the client secret, while it lasts', () => {
    expect(verifyJiraJwt(SECRET, `Bearer ${jiraWebhookJwt(SECRET, NOW)}`, NOW)).toBe(true);
    const iat = NOW / 1000;
    const noExp = token({ alg: 'HS256', typ: 'JWT' }, { iat });
    expect(verifyJiraJwt(SECRET, `Bearer ${noExp}`, NOW)).toBe(true);
    const expired = token({ alg: 'HS256' }, { iat: iat - 600, exp: iat - 120 });
    expect(verifyJiraJwt(SECRET, `Bearer ${expired}`, NOW)).toBe(false);
  });

  it.each([
    ['no header', undefined],
    ['not a bearer', `Basic ${jiraWebhookJwt(SECRET, NOW)}`],
    ['another secret', `Bearer ${jiraWebhookJwt('another-secret-0123456', NOW)}`],
    ['alg none', `Bearer ${part({ alg: 'none' })}.${part({ iat: NOW / 1000 })}.`],
    ['alg HS512', `Bearer ${token({ alg: 'HS512' }, { iat: NOW / 1000 })}`],
    ['claims not JSON', `Bearer ${token({ alg: 'HS256' }, 'x').replace(/\.[^.]+\./, '.bm9wZQ.')}`],
    ['exp not a number', `Bearer ${token({ alg: 'HS256' }, { exp: 'soon' })}`],
  ])('refuses %s', (_what, header) => {
    expect(verifyJiraJwt(SECRET, header, NOW)).toBe(false);
  });
});
