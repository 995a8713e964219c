/**
 * GitHub webhook helpers for tests: POST a body with GitHub's headers, signed the way GitHub
 * signs it (src/fakes/sign-requests.ts).
 */
import { signGitHub } from '../../src/fakes/sign-requests.js';

export const TEST_GITHUB_SECRET = 'test-github-webhook-secret-0123456789';

export interface PostGitHubOptions {
  event: string;
  deliveryId: string;
  secret?: string;
  /** Replace the computed signature; `null` sends none. */
  signature?: string | null;
  headers?: Record<string, string>;
  contentType?: string;
}

/** POST a signed webhook to `url` (e.g. `http://127.0.0.1:PORT/github/webhooks`). */
export async function postGitHub(
  url: string,
  body: string,
  options: PostGitHubOptions,
): Promise<Response> {
  const signature =
    options.signature === undefined
      ? signGitHub(body, options.secret ?? TEST_GITHUB_SECRET)
      : options.signature;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'user-agent': 'GitHub-Hookshot/test',
      'x-github-event': options.event,
      'x-github-delivery': options.deliveryId,
      'x-github-hook-id': '123456',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
      ...options.headers,
    },
    body,
  });
}
