/**
 * The Slack libraries' logger: a debug line (a Web API call's body) is built only when debug
 * lines are written, so at `info` nothing of it is parsed or shaped; at `debug` it is written,
 * its body reduced to its shape.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { toBoltLogger } from '../../../src/slack/api/slack-logger.js';

function pinoAt(level: string): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** An argument that counts how often it was turned into text. */
function counted(): { arg: { toJSON(): unknown }; built: () => number } {
  let n = 0;
  return {
    arg: {
      toJSON() {
        n += 1;
        return { ok: true, text: 'a message read from a thread' };
      },
    },
    built: () => n,
  };
}

describe('the Slack libraries logger', () => {
  it('at info, builds no debug line (nor a quietened warning)', () => {
    const { logger, lines } = pinoAt('info');
    const bolt = toBoltLogger(logger, 'slack-web-api');
    const body = counted();
    bolt.debug('http request result:', body.arg);
    bolt.warn('Authorization of incoming event did not succeed.', body.arg);
    expect(body.built()).toBe(0);
    expect(lines).toEqual([]);
    bolt.info('an info line', body.arg);
    expect(body.built()).toBe(1);
    expect(lines).toHaveLength(1);
  });

  it('at debug, writes the line with the body reduced to its shape', () => {
    const { logger, lines } = pinoAt('debug');
    const bolt = toBoltLogger(logger, 'slack-web-api');
    const body = counted();
    bolt.debug('http request result:', body.arg);
    expect(body.built()).toBe(1);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { msg: string; component: string };
    expect(line.component).toBe('slack-web-api');
    expect(line.msg).toContain('fields ok,text');
    expect(line.msg).not.toContain('a message read from a thread');
  });
});
