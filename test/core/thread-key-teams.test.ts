/** Teams thread keys: conversation ids that hold colons, a chat's one thread, the scope and tenant. */
import { describe, expect, it } from 'vitest';
import {
  decodeThreadKey,
  encodeThreadKey,
  settingsScopeOf,
  tenantOf,
} from '../../src/core/thread-key.js';

const TENANT = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

describe('Teams thread keys', () => {
  it.each([
    ['19:abc123@thread.tacv2', '1712345678901'],
    ['a:1Xyz-Q_3', ''],
    ['19:meeting_Nz@thread.v2', ''],
  ])('round-trip %s / %s', (conversation, root) => {
    const key = encodeThreadKey({ platform: 'teams', tenant: TENANT, conversation, root });
    expect(key).toBe(`teams:${TENANT}:${conversation}:${root}`);
    expect(decodeThreadKey(key)).toEqual({ platform: 'teams', tenant: TENANT, conversation, root });
    expect(settingsScopeOf(key)).toBe(`teams:${TENANT}:${conversation}`);
    expect(tenantOf(key)).toBe(`teams:${TENANT}`);
  });

  it('refuses a conversation with its ;messageid= part, or a malformed tenant', () => {
    expect(() =>
      encodeThreadKey({
        platform: 'teams',
        tenant: TENANT,
        conversation: '19:abc@thread.tacv2;messageid=1',
        root: '1',
      }),
    ).toThrow();
    expect(decodeThreadKey('teams:not a tenant:19:abc@thread.tacv2:1')).toBeUndefined();
  });
});
