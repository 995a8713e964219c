import { describe, expect, it } from 'vitest';
import { listeningLine } from '../../src/service/startup-report.js';

describe('the start-up line says the address actually listened on', () => {
  it('every interface: 0.0.0.0 (or [::]) with a URL usable on this machine', () => {
    expect(listeningLine({ url: 'http://127.0.0.1:3000', host: '0.0.0.0', agentUrl: '' })).toBe(
      'agent-relay is listening on 0.0.0.0:3000 (every interface); on this machine: http://127.0.0.1:3000',
    );
    expect(listeningLine({ url: 'http://127.0.0.1:3000', host: '::', agentUrl: '' })).toContain(
      'listening on [::]:3000 (every interface)',
    );
  });

  it('one address: that address', () => {
    expect(listeningLine({ url: 'http://127.0.0.1:3000', host: '127.0.0.1', agentUrl: '' })).toBe(
      'agent-relay is listening on http://127.0.0.1:3000',
    );
  });
});
