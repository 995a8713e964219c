/**
 * One webhook endpoint, the same steps in the same order for every platform that receives
 * signed HTTP deliveries (GitHub, Linear, and those to come):
 *
 *   method -> body (its limit) -> media type -> required headers -> signature on the raw body
 *   -> parse -> interpret -> inbox -> answer
 *
 * Nothing is parsed before the signature holds, nothing is recorded for a rejected request,
 * and no platform is called before the answer. A step that fails answers with a short JSON
 * object (`{ok: false, error, message}`); an unexpected throw answers 500. The platform gives
 * only its own steps; the acknowledgement time is measured by the HTTP server, by route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mediaTypeOf } from '../core/ingress/media-type.js';
import type { Logger, TriggerSink } from '../core/ports/index.js';
import type { Platform, Trigger } from '../core/trigger.js';
import type { Route } from './route.js';
import { readBody, BodyTooLargeError } from './read-body.js';

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
  /** Runs once the answer was sent (a refused session told why). */
  after?: () => void;
}

export const refuse = (status: number, error: string, message: string): WebhookAnswer => ({
  status,
  body: { ok: false, error, message },
});

/** A header's first value, trimmed; undefined when absent or blank. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined || one.trim() === '' ? undefined : one.trim();
}

/** What a delivery meant, once verified and parsed. */
export type Interpretation =
  /** Hand it to the inbox; answer `accepted` (or `duplicate`). */
  | { kind: 'trigger'; trigger: Trigger; log?: Logger }
  /** Answer without the inbox (ignored, refused, a ping). */
  | { kind: 'answer'; answer: WebhookAnswer };

export interface WebhookSteps<H> {
  /** For the logs: `github-ingress`. */
  component: string;
  logger: Logger;
  sink: TriggerSink;
  maxBodyBytes: number;
  mediaTypes: ReadonlySet<string>;
  /** The headers the platform needs (delivery id, event name), or the refusal. */
  headers(req: IncomingMessage): H | WebhookAnswer;
  /** The signature (and any signed freshness) on the raw body: undefined when it holds. */
  verify(
    raw: Buffer,
    headers: H,
    req: IncomingMessage,
    log: Logger,
  ): Promise<WebhookAnswer | undefined>;
  /** The verified body as data; a throw answers 400 `malformed_json`. */
  parse(raw: Buffer, mediaType: string): unknown;
  /** What the delivery means; `raw` is the signed body (an identity of it dedupes replays). */
  interpret(payload: unknown, headers: H, log: Logger, raw: Buffer): Promise<Interpretation>;
  /** The status of an accepted delivery (GitHub: 202). Default 200. */
  acceptedStatus?: number;
  /**
   * The answer to a delivery the inbox took (or had), when the platform expects its own
   * shape there (a Teams invoke is answered with an invoke response). Default `{ok, result}`.
   */
  acceptedAnswer?(trigger: Trigger, result: 'accepted' | 'duplicate'): WebhookAnswer;
}

export interface WebhookEndpoint {
  handle(req: IncomingMessage, res: ServerResponse, rawBody?: Buffer): Promise<void>;
}

/** The route of a platform's endpoint: `POST /<platform>/webhooks`, its acknowledgement measured. */
export function webhookRoute(
  platform: Platform,
  bodyLimitBytes: number,
  endpoint: WebhookEndpoint,
): Route {
  return {
    path: `/${platform}/webhooks`,
    methods: ['POST'],
    bodyLimitBytes,
    acknowledges: platform,
    handler: (req, res, body) => endpoint.handle(req, res, body),
  };
}

const isAnswer = (v: unknown): v is WebhookAnswer =>
  typeof v === 'object' && v !== null && 'status' in v && 'body' in v;

export function createWebhookEndpoint<H>(steps: WebhookSteps<H>): WebhookEndpoint {
  const logger = steps.logger.child({ component: steps.component });

  async function answer(req: IncomingMessage, given?: Buffer): Promise<WebhookAnswer> {
    if (req.method !== 'POST') return refuse(405, 'method_not_allowed', 'use POST');
    let raw: Buffer;
    try {
      raw = given ?? (await readBody(req, steps.maxBodyBytes));
    } catch (err) {
      if (err instanceof BodyTooLargeError) return refuse(413, err.code, 'payload too large');
      throw err;
    }
    if (raw.length > steps.maxBodyBytes) return refuse(413, 'body_too_large', 'payload too large');
    const mediaType = mediaTypeOf(req.headers['content-type']);
    if (!steps.mediaTypes.has(mediaType))
      return refuse(415, 'unsupported_media_type', `use ${[...steps.mediaTypes].join(' or ')}`);
    const headers = steps.headers(req);
    if (isAnswer(headers)) return headers;
    const log = logger.child(typeof headers === 'object' && headers !== null ? headers : {});
    const refused = await steps.verify(raw, headers, req, log);
    if (refused) return refused;
    let payload: unknown;
    try {
      payload = steps.parse(raw, mediaType);
    } catch {
      return refuse(400, 'malformed_json', 'the body is not JSON');
    }
    const meaning = await steps.interpret(payload, headers, log, raw);
    if (meaning.kind === 'answer') return meaning.answer;
    const tlog = meaning.log ?? log;
    try {
      const result = await steps.sink.accept(meaning.trigger);
      tlog.info({ kind: meaning.trigger.kind, outcome: result }, 'trigger handed to the inbox');
      if (steps.acceptedAnswer) return steps.acceptedAnswer(meaning.trigger, result);
      const status = result === 'accepted' ? (steps.acceptedStatus ?? 200) : 200;
      return { status, body: { ok: true, result } };
    } catch (err) {
      tlog.error(
        { err: err instanceof Error ? err.message : String(err) },
        'could not take the webhook',
      );
      return refuse(503, 'unavailable', 'could not record the event; redeliver it later');
    }
  }

  return {
    async handle(req, res, rawBody) {
      let result: WebhookAnswer;
      try {
        result = await answer(req, rawBody);
      } catch (err) {
        logger.error(
          { err: err instanceof Error ? err.message : String(err) },
          'webhook handling failed',
        );
        result = refuse(500, 'internal', 'internal error');
      }
      if (!res.headersSent) {
        const payload = JSON.stringify(result.body);
        const headers: Record<string, string | number> = {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
        };
        if (result.status === 413) headers.connection = 'close';
        res.writeHead(result.status, headers);
        res.end(payload);
      }
      result.after?.();
    },
  };
}
