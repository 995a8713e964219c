/**
 * A Bolt receiver whose request handler the runtime's one HTTP server calls for
 * `POST /slack/events` (events, slash commands and interactivity share it).
 *
 * Verify the raw body first (signature + 5-minute window, our clock), answer Slack's URL
 * check and SSL check, then hand the payload to Bolt. The response waits for the listeners
 * (Bolt's `processBeforeResponse`): the listener writes the trigger to the inbox and only then
 * acknowledges, so a failed write answers 500 and Slack delivers the event again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, Receiver } from '@slack/bolt';
import { HTTPModuleFunctions, HTTPResponseAck } from '@slack/bolt';
import { SLACK_BODY_LIMIT_BYTES } from '../../core/ingress/body-limit.js';
import type { Clock, Logger } from '../../core/ports/index.js';
import { mediaTypeOf, WEBHOOK_MEDIA_TYPES } from '../../core/ingress/media-type.js';
import { toBoltLogger } from '../api/slack-logger.js';
import { verifySlackSignature } from './verify.js';

export interface SlackHttpReceiver extends Receiver {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface SlackHttpReceiverOptions {
  signingSecret: string;
  logger: Logger;
  clock: Clock;
  /** Largest accepted body; default SLACK_BODY_LIMIT_BYTES (512 KiB). */
  bodyLimitBytes?: number;
  /** How long a listener may take before the request is answered anyway (ms). */
  ackTimeoutMs?: number;
}

function reply(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status);
  res.end();
}

function replyJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function createSlackHttpReceiver(options: SlackHttpReceiverOptions): SlackHttpReceiver {
  const log = options.logger.child({ component: 'slack-receiver' });
  const boltLogger = toBoltLogger(options.logger, 'slack-receiver');
  let app: App | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let buffered;
    try {
      buffered = await HTTPModuleFunctions.bufferIncomingMessage(
        req,
        options.bodyLimitBytes ?? SLACK_BODY_LIMIT_BYTES,
      );
    } catch (err) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(err) && err.statusCode === 413;
      log.warn(
        { err },
        tooLarge ? 'Slack request body too large' : 'Slack request body unreadable',
      );
      return reply(res, tooLarge ? 413 : 400);
    }
    const mediaType = mediaTypeOf(req.headers['content-type']);
    if (!WEBHOOK_MEDIA_TYPES.has(mediaType)) {
      log.warn({ contentType: mediaType.slice(0, 100) }, 'Slack request with a wrong content type');
      return replyJson(res, 415, {
        ok: false,
        error: 'unsupported_media_type',
        message: 'use application/json or application/x-www-form-urlencoded',
      });
    }
    const raw = buffered.rawBody.toString('utf8');
    if (mediaType === 'application/x-www-form-urlencoded') {
      if (new URLSearchParams(raw).get('ssl_check') === '1') return reply(res, 200);
    }
    const verdict = verifySlackSignature(
      raw,
      req.headers,
      options.signingSecret,
      options.clock.now(),
    );
    if (!verdict.ok) {
      log.warn(
        { reason: verdict.reason },
        'Slack request rejected: not signed by Slack, or too old',
      );
      return reply(res, 401);
    }
    let body: Record<string, unknown>;
    try {
      body = HTTPModuleFunctions.parseHTTPRequestBody(buffered) as Record<string, unknown>;
    } catch (err) {
      log.warn({ err }, 'Slack request body malformed');
      return reply(res, 400);
    }
    if (typeof body !== 'object' || body === null) return reply(res, 400);
    if (body.type === 'url_verification') {
      return HTTPModuleFunctions.buildUrlVerificationResponse(res, body);
    }
    if (app === undefined) return reply(res, 503);

    const ack = new HTTPResponseAck({
      logger: boltLogger,
      processBeforeResponse: true,
      unhandledRequestTimeoutMillis: options.ackTimeoutMs ?? 3_001,
      unhandledRequestHandler: ({ response }) => {
        log.error({}, 'Slack request not acknowledged within 3 s; answering 404');
        reply(response, 404);
      },
      httpRequest: buffered,
      httpRequestBody: body,
      httpResponse: res,
    });
    try {
      await app.processEvent({
        body,
        ack: ack.bind(),
        retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
        retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
        customProperties: {},
      });
      ack.ack(); // stops the watchdog when no listener acknowledged (nothing of ours)
      if (res.headersSent) return;
      if (ack.storedResponse === undefined) return reply(res, 200);
      HTTPModuleFunctions.buildContentResponse(res, ack.storedResponse);
    } catch (err) {
      ack.ack();
      log.error({ err }, 'Slack request failed; answering 500 so Slack tries again');
      reply(res, 500);
    }
  }

  return {
    init(a: App) {
      app = a;
    },
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    handle,
  };
}
