import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { components } from '@octokit/openapi-types';
import type { WebhookEventName } from '@octokit/webhooks/types';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { interpretEvent } from '../../src/github/ingress/interpret-event.js';
import { FIXTURE_EVENT } from './fixtures.js';

const manifest = parse(
  readFileSync(fileURLToPath(new URL('../../manifests/github-app.yaml', import.meta.url)), 'utf8'),
) as Record<string, unknown>;

describe('GitHub App manifest', () => {
  it('asks for the minimum permissions (no contents: nothing reads the code)', () => {
    // Names and levels GitHub publishes (`app-permissions` in its REST description).
    const minimum = {
      issues: 'write',
      pull_requests: 'write',
      metadata: 'read',
      checks: 'write',
    } as const satisfies components['schemas']['app-permissions'];
    expect(manifest.default_permissions).toEqual(minimum);
  });

  it('subscribes to exactly the events the ingress handles', () => {
    const events = manifest.default_events as string[];
    // Event names GitHub publishes (its webhooks description, as @octokit/webhooks types it).
    const subscribed = [
      'check_run',
      'issue_comment',
      'issues',
      'pull_request',
      'pull_request_review_comment',
    ] as const satisfies readonly WebhookEventName[];
    expect([...events].sort()).toEqual([...subscribed]);
    const handled = new Set(Object.values(FIXTURE_EVENT).filter((e) => e !== 'ping'));
    expect([...handled].sort()).toEqual([...events].sort());
    for (const event of events) {
      // Each subscribed event is understood (an unhandled one would be ignored as `event …`).
      expect(
        interpretEvent(
          event,
          { action: 'created' },
          {
            botHandle: 'agent-relay',
            triggerLabel: 'agent',
            maxBodyChars: 100,
            deliveryId: 'd',
            receivedAt: '2024-01-01T00:00:00Z',
          },
        ),
      ).not.toEqual({ kind: 'ignore', reason: `event ${event}` });
    }
  });

  it('points the webhook at /github/webhooks and is a valid manifest shape', () => {
    expect(manifest).toMatchObject({
      name: expect.any(String) as unknown,
      url: expect.stringMatching(/^https:\/\//) as unknown,
      hook_attributes: {
        url: expect.stringMatching(/\/github\/webhooks$/) as unknown,
        active: true,
      },
      redirect_url: expect.stringMatching(/^https?:\/\//) as unknown,
      public: false,
    });
  });
});
