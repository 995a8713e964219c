/**
 * A route of the one HTTP server, as a platform (or the console, or the operations routes)
 * declares it. The server reads the body once, up to `bodyLimitBytes`, then calls `handler`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Platform } from '../core/trigger.js';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, rawBody: Buffer) => unknown;

export interface Route {
  path: string;
  methods: readonly string[];
  handler: RouteHandler;
  /** Also serve every path below `path` (`/console` serves `/console/runs/1`). */
  prefix?: boolean;
  /** Largest body this route reads; default the server's `bodyLimitBytes`. */
  bodyLimitBytes?: number;
  /**
   * The platform that waits on this route's answer to deliver an event (webhooks, Slack's
   * events): the server measures the acknowledgement for it, and the engine counts arrivals.
   */
  acknowledges?: Platform;
}
