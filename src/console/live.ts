/**
 * Live updates: server-sent events to every open console page. One poll of the store's
 * change stamp per interval (however many pages are open, and only while one is), so a
 * state change written by any replica reaches the page. Each `change` event carries the
 * stamp, and a new stream gets the current one at once: a page compares it with the stamp
 * it was rendered at and fetches itself anew when they differ, so nothing written between
 * the render and the stream's start is missed.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from '../core/ports/index.js';

export interface LiveHub {
  attach(res: ServerResponse): void;
  clients(): number;
  close(): void;
}

export function createLiveHub(options: {
  changeStamp: () => Promise<string>;
  logger: Logger;
  pollMs: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
}): LiveHub {
  const clients = new Set<ServerResponse>();
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let beats = 0;
  const beatEvery = Math.max(1, Math.round((options.heartbeatMs ?? 15_000) / options.pollMs));

  const send = (text: string) => {
    for (const res of clients) res.write(text);
  };

  async function tick(): Promise<void> {
    timer = undefined;
    if (clients.size === 0) return;
    try {
      const stamp = await options.changeStamp();
      if (stamp !== last) send(`event: change\ndata: ${stamp}\n\n`);
      last = stamp;
    } catch (err) {
      options.logger.debug({ err }, 'console: change stamp unavailable');
    }
    beats += 1;
    if (beats % beatEvery === 0) send(': keep-alive\n\n');
    schedule();
  }

  function schedule(): void {
    if (timer === undefined && clients.size > 0) {
      timer = setTimeout(() => void tick(), options.pollMs);
      timer.unref();
    }
  }

  return {
    attach(res) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 3000\n\n');
      clients.add(res);
      res.on('close', () => clients.delete(res));
      options.changeStamp().then(
        (stamp) => {
          if (clients.has(res)) res.write(`event: change\ndata: ${stamp}\n\n`);
        },
        (err: unknown) => options.logger.debug({ err }, 'console: change stamp unavailable'),
      );
      schedule();
    },
    clients: () => clients.size,
    close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
