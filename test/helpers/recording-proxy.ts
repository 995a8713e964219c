/**
 * A loopback HTTP proxy that records every exchange passing through it: point a real client
 * at `baseUrl` and it forwards each request unchanged to `target` and the answer unchanged
 * back, keeping method, path, query, JSON body, status and JSON answer of each. A connection
 * the target drops is dropped towards the client too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ProxiedExchange {
  method: string;
  /** The path below `prefix`, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  status: number;
  answer: unknown;
}

export interface RecordingProxy {
  /** The proxy's URL with `prefix` appended: the client's base URL. */
  baseUrl: string;
  exchanges: ProxiedExchange[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `target`: the origin to forward to (e.g. the emulator's URL); `prefix`: e.g. `/api/v1`. */
export async function startRecordingProxy(target: string, prefix = ''): Promise<RecordingProxy> {
  const exchanges: ProxiedExchange[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const text = await readAll(req);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    }
    let upstream;
    try {
      upstream = await request(target + url.pathname + url.search, {
        method: (req.method ?? 'GET') as 'GET',
        headers,
        ...(text === '' ? {} : { body: text }),
      });
    } catch {
      req.socket.destroy();
      return;
    }
    const answerText = await upstream.body.text();
    exchanges.push({
      method: req.method ?? 'GET',
      path: url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: parseJson(text),
      status: upstream.statusCode,
      answer: parseJson(answerText),
    });
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(upstream.headers)) {
      if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
    }
    res.writeHead(upstream.statusCode, out);
    res.end(answerText);
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
