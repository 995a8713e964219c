import { describe, expect, it } from 'vitest';
import { MetadataSchema } from '../../../src/agent/schemas.js';
import {
  fitMetadataValue,
  requestIdFor,
  runMetadata,
} from '../../../src/runs/use-cases/run-metadata.js';
import { slackMention } from '../fixtures.js';

describe('run metadata', () => {
  it('keeps short values and fits long ones into 256 bytes, distinctly', () => {
    expect(fitMetadataValue('slack:T:C:1.2')).toBe('slack:T:C:1.2');
    const a = fitMetadataValue('é'.repeat(300) + 'a');
    const b = fitMetadataValue('é'.repeat(300) + 'b');
    expect(Buffer.byteLength(a, 'utf8')).toBeLessThanOrEqual(256);
    expect(a).not.toBe(b);
  });

  it('derives a stable request id from the delivery id', () => {
    const trigger = slackMention({ deliveryId: 'Ev123' });
    expect(requestIdFor({ trigger })).toBe('slack:Ev123');
    expect(requestIdFor({ trigger })).toBe(requestIdFor({ trigger }));
  });

  it("takes the platform's delivery id, not the inbox's key of a signed body", () => {
    const trigger = { ...slackMention({ deliveryId: 'Ev123' }), dedupeKey: 'slack:sha256:ab' };
    expect(requestIdFor({ trigger })).toBe('slack:Ev123');
  });

  it('stamps thread, platform, request and actor, valid for the contract', () => {
    const trigger = slackMention({ context: { permalink: 'https://slack.example/p1' } });
    const metadata = runMetadata({ trigger, threadKey: 'k'.repeat(400), requestId: 'slack:Ev1' });
    expect(metadata).toMatchObject({
      relay_platform: 'slack',
      relay_request: 'slack:Ev1',
      relay_actor: 'slack:U1',
      relay_source_url: 'https://slack.example/p1',
    });
    expect(MetadataSchema.safeParse(metadata).success).toBe(true);
  });
});
