import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../../src/agent/index.js';
import { ConfigError } from '../../src/config/load.js';
import { DeliveryError } from '../../src/core/ports/index.js';
import { RelayError } from '../../src/core/relay-error.js';
import { InvalidThreadAddressError } from '../../src/core/thread-key.js';
import { DemoError } from '../../src/demo/script.js';
import { EmulatorCliError } from '../../src/emulator/cli.js';
import { EmulatorProblem } from '../../src/emulator/http/problem.js';
import { BodyTooLargeError } from '../../src/platform/read-body.js';
import { RateLimited } from '../../src/runs/tracker/observe.js';
import { StartupError } from '../../src/service/agent-key-check.js';
import { BotIdentityUnavailableError } from '../../src/slack/ingress/listeners.js';
import { SlackAuthError } from '../../src/slack/ingress/slack-ingress.js';
import { StoreConfigError, StoreError } from '../../src/store/errors.js';

const SNAKE_CASE = /^[a-z]+(?:_[a-z]+)*$/;

describe('RelayError', () => {
  it('keeps the code, the message and the cause', () => {
    const cause = new Error('driver said no');
    const err = new RelayError('some_failure', 'it failed', { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: 'some_failure', message: 'it failed', cause });
    expect('cause' in new RelayError('some_failure', 'no cause')).toBe(false);
  });

  it.each<[string, RelayError, string]>([
    [
      'AgentApiError',
      new AgentApiError('rate_limit', { message: '429', retryable: true }),
      'rate_limit',
    ],
    [
      'AgentApiError',
      new AgentApiError('connection_timeout', {
        message: 'slow',
        retryable: true,
        beforeSend: false,
      }),
      'connection_timeout',
    ],
    ['ConfigError', new ConfigError([{ variable: 'PORT', message: 'bad' }]), 'invalid_config'],
    ['DeliveryError', new DeliveryError('not_found', 'gone', false), 'not_found'],
    ['InvalidThreadAddressError', new InvalidThreadAddressError('bad'), 'invalid_thread_address'],
    ['DemoError', new DemoError('waited'), 'demo_timeout'],
    ['EmulatorCliError', new EmulatorCliError('--port'), 'invalid_argument'],
    ['EmulatorProblem', new EmulatorProblem(404, 'resource_not_found'), 'resource_not_found'],
    ['BodyTooLargeError', new BodyTooLargeError('too big'), 'body_too_large'],
    ['RateLimited', new RateLimited(1000), 'rate_limited'],
    ['StartupError', new StartupError('listen_failed', 'in use'), 'listen_failed'],
    [
      'BotIdentityUnavailableError',
      new BotIdentityUnavailableError('?'),
      'slack_identity_unavailable',
    ],
    ['SlackAuthError', new SlackAuthError('refused'), 'slack_auth_failed'],
    ['StoreError', new StoreError('busy', 'locked'), 'busy'],
    [
      'StoreConfigError',
      new StoreConfigError('invalid_database_url', 'bad url'),
      'invalid_database_url',
    ],
  ])('%s is a RelayError with a stable snake_case code', (name, err, code) => {
    expect(err).toBeInstanceOf(RelayError);
    expect(err.name).toBe(name);
    expect(err.code).toBe(code);
    expect(err.code).toMatch(SNAKE_CASE);
  });
});
