/**
 * `X-Hub-Signature-256` verification on the raw body with `@octokit/webhooks`, trying the
 * current secret and, during a rotation, the previous one.
 */
import { Webhooks } from '@octokit/webhooks';

export interface SignatureVerifier {
  /** Which secret matched, or false. Never throws. */
  verify(rawBody: string, signature: string): Promise<'current' | 'previous' | false>;
}

export function createSignatureVerifier(
  secret: string,
  previousSecret?: string,
): SignatureVerifier {
  if (secret === '') throw new TypeError('GitHub webhook secret must not be empty');
  const current = new Webhooks({ secret });
  const previous =
    previousSecret === undefined || previousSecret === ''
      ? undefined
      : new Webhooks({ secret: previousSecret });
  const check = async (webhooks: Webhooks, body: string, signature: string): Promise<boolean> =>
    webhooks.verify(body, signature).catch(() => false);
  return {
    async verify(rawBody, signature) {
      if (!signature.startsWith('sha256=')) return false;
      if (await check(current, rawBody, signature)) return 'current';
      if (previous !== undefined && (await check(previous, rawBody, signature))) return 'previous';
      return false;
    },
  };
}
