/**
 * Linear's webhook checks, done by the SDK's `LinearWebhookClient`: `Linear-Signature` is the
 * hex HMAC-SHA256 of the raw body with the webhook's signing secret (compared in constant
 * time), and the signed body's `webhookTimestamp` must be within a minute of now, against
 * replays. The SDK answers with an exception; this names which check failed, so the ingress
 * can say so.
 */
import { LinearWebhookClient } from '@linear/sdk/webhooks';

export type WebhookVerdict = 'ok' | 'bad_signature' | 'stale_timestamp' | 'not_json';

export function createWebhookVerifier(
  secret: string,
): (body: Buffer, signature?: string) => WebhookVerdict {
  const webhooks = new LinearWebhookClient(secret);
  return (body, signature) => {
    try {
      webhooks.verify(body, signature?.trim() ?? '');
      return 'ok';
    } catch (err) {
      // The signature is checked first: a body it could not parse was signed with our secret.
      if (err instanceof SyntaxError) return 'not_json';
      if (err instanceof Error && /timestamp/i.test(err.message)) return 'stale_timestamp';
      return 'bad_signature';
    }
  };
}
