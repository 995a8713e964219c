/**
 * A delaying pass-through proxy on loopback, in front of the emulator: the requests `delayed`
 * picks (the create call) wait `delayMs` before they are forwarded, as a real service that
 * provisions before it answers would keep them; everything else passes at once.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  /** The proxy's base URL with the target's path (use it as AGENT_API_URL). */
  url: string;
  close(): Promise<void>;
}

export async function startDelayProxy(input: {
  target: string;
  delayMs: number;
  delayed: (method: string, path: string) => boolean;
}): Promise<DelayProxy> {
  const base = new URL(input.target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = () => {
        const upstream = request(
          {
            host: base.hostname,
            port: base.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: base.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      };
      const wait = input.delayed(req.method ?? 'GET', req.url ?? '/') ? input.delayMs : 0;
      if (wait > 0) setTimeout(forward, wait);
      else forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname === '/' ? '' : base.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
