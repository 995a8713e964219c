import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createLogger, scrub } from '../../src/service/logger.js';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIsecretKEYbody\n-----END PRIVATE KEY-----';
const SECRETS = {
  DATABASE_URL: 'postgres://relay:pw-SECRET-0@db/relay',
  AGENT_API_URL: 'http://svc/api/v1',
  AGENT_API_KEY: 'key-SECRET-1',
  SLACK_SIGNING_SECRET: 'sig-SECRET-2',
  SLACK_BOT_TOKEN: 'xoxb-SECRET-3',
  SLACK_APP_TOKEN: 'xapp-SECRET-4',
  GITHUB_WEBHOOK_SECRET: 'wh-SECRET-5',
  GITHUB_WEBHOOK_SECRET_PREVIOUS: 'wh-SECRET-6',
  GITHUB_APP_ID: '12',
  GITHUB_PRIVATE_KEY: PEM,
};

function capture(pretty = false) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ level: 'debug', pretty, destination });
  return { logger, text: () => lines.join('') };
}

describe('createLogger', () => {
  it('logs a whole config, the environment and request headers without a secret', () => {
    const { logger, text } = capture();
    const config = loadConfig(SECRETS);
    logger.info({ config }, 'config');
    logger.info({ env: { ...SECRETS } }, 'environment');
    logger.debug(
      {
        req: { headers: { authorization: 'Bearer key-SECRET-1', cookie: 'sid=SECRET-7' } },
        err: { config: { headers: { Authorization: 'Bearer xoxb-SECRET-3' } } },
        github: { auth: { token: 'ghs_SECRET-8' } },
      },
      'request',
    );
    const out = text();
    expect(out).toContain('"msg":"config"');
    expect(out).toContain('"botToken":"***"');
    expect(out).toContain('postgres://relay:***@db/relay');
    expect(out).not.toMatch(/SECRET-\d|MIIsecretKEYbody/);
  });

  it('child loggers carry deliveryId, threadKey and runId, still redacted', () => {
    const { logger, text } = capture();
    logger
      .child({ deliveryId: 'Ev1', threadKey: 'slack:T:C:1.2' })
      .child({ runId: 'run-1' })
      .info({ apiKey: 'key-SECRET-9' }, 'handled');
    const line = JSON.parse(text()) as Record<string, unknown>;
    expect(line).toMatchObject({
      deliveryId: 'Ev1',
      threadKey: 'slack:T:C:1.2',
      runId: 'run-1',
      apiKey: '***',
      level: 30,
    });
  });

  it('pretty output is redacted too, and honours the level', () => {
    const { logger, text } = capture(true);
    logger.child({ runId: 'r9' }).info({ token: 'tok-SECRET-10' }, 'pretty line');
    logger.trace({}, 'too detailed');
    const out = text();
    expect(out).toContain('pretty line');
    expect(out).toContain('r9');
    expect(out).not.toContain('SECRET-10');
    expect(out).not.toContain('too detailed');
  });

  it('censors secrets in child bindings, in errors and errors nested in fields, and in arrays', () => {
    const { logger, text } = capture();
    const failure = Object.assign(new Error('boom'), {
      headers: { authorization: 'Bearer key-SECRET-11' },
    });
    const inner = Object.assign(new Error('inner'), { token: 'tok-SECRET-12' });
    logger
      .child({ auth: { token: 'ghs_SECRET-13' } })
      .error(
        { err: failure, detail: { cause: inner }, list: [{ apiKey: 'key-SECRET-14' }] },
        'failed',
      );
    const out = text();
    expect(out).not.toMatch(/SECRET-1[1-4]/);
    const line = JSON.parse(out) as { err: { message: string; stack: string }; detail: unknown };
    expect(line.err.message).toBe('boom');
    expect(line.err.stack).toContain('Error: boom');
    expect(line.detail).toMatchObject({ cause: { message: 'inner', token: '***' } });
    // Objects without secrets are logged as they are, and not copied.
    const plain = { a: { b: [1, 2, { c: 'x' }] } };
    expect(scrub(plain)).toBe(plain);
  });

  it("knows Linear's token shapes in a message and in an error's message and stack", () => {
    const { logger, text } = capture();
    const apiKey = 'lin_api_SECRET15abcdefghijklmnopqrstuvwxyz0123456789';
    const oauth = 'lin_oauth_SECRET16' + 'a1b2c3d4'.repeat(8);
    logger.warn({}, `Linear refused the token ${apiKey}`);
    logger.error({ err: new Error(`authentication failed for ${oauth}`) }, 'Linear call failed');
    const out = text();
    expect(out).not.toMatch(/SECRET1[56]/);
    expect(out).toContain('lin_api_***');
    expect(out).toContain('lin_oauth_***');
  });
});
