/**
 * A pass-through HTTP proxy on loopback in front of a fake API. `freeze()` holds new requests
 * unanswered before they reach the API; `freezeAnswers()` lets requests through (the API does
 * the work) but holds its answers; `dropHeld()` discards what is held, as a crash would;
 * `thaw()` lets everything through again. The crash test uses it to kill the relay while
 * notifications are in flight (not yet received by the platform), and after the service
 * created runs whose answers the relay never got.
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gate {
  /** The proxy's base URL, with the target's path appended (e.g. `/api/`). */
  url: string;
  freeze(): void;
  /** Hold the answers to requests matching `which` (default: all). */
  freezeAnswers(which?: (method: string, path: string) => boolean): void;
  thaw(): void;
  dropHeld(): number;
  held(): number;
  close(): Promise<void>;
}

interface Held {
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer;
}

export async function startGate(target: string): Promise<Gate> {
  const base = new URL(target);
  let frozen = false;
  let answersFrozen: ((method: string, path: string) => boolean) | undefined;
  let held: Held[] = [];
  let heldAnswers: { res: ServerResponse; deliver: () => void }[] = [];

  function forward({ req, res, body }: Held): void {
    const upstream = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: base.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const deliver = () => {
            if (res.destroyed) return;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          };
          if (answersFrozen?.(req.method ?? 'GET', req.url ?? '/'))
            heldAnswers.push({ res, deliver });
          else deliver();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const item = { req, res, body: Buffer.concat(chunks) };
      if (!frozen) return forward(item);
      held.push(item);
      res.on('close', () => (held = held.filter((h) => h !== item)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${base.pathname === '/' ? '' : base.pathname}`,
    freeze: () => void (frozen = true),
    freezeAnswers: (which = () => true) => void (answersFrozen = which),
    thaw() {
      frozen = false;
      answersFrozen = undefined;
      const waiting = held;
      held = [];
      for (const item of waiting) if (!item.res.destroyed) forward(item);
      const answers = heldAnswers;
      heldAnswers = [];
      for (const a of answers) a.deliver();
    },
    dropHeld() {
      const n = held.length + heldAnswers.length;
      for (const item of held) item.res.destroy();
      for (const a of heldAnswers) a.res.destroy();
      held = [];
      heldAnswers = [];
      return n;
    },
    held: () => held.length + heldAnswers.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
