/**
 * The Slack Web API client's HTTP call made with undici's `request` instead of the built-in
 * `fetch` (the client's `fetch` option). Under load the built-in `fetch` was the largest part
 * of a Slack call's CPU time on the event loop that also acknowledges incoming requests:
 * WHATWG streams, an AbortSignal and a Response per call. `request` does the same HTTP with
 * the same connection pool (the global dispatcher) for much less.
 *
 * Only what the client sends is taken this way: a string or Buffer body with plain-object
 * headers, redirects refused (the client always asks that). Anything else (a file upload's
 * FormData, a caller that wants redirects followed) goes to the built-in `fetch` untouched.
 * The answer is read whole and handed back as the small part of a Response the client reads
 * (status, headers, text, json, arrayBuffer). Kept for its measured saving
 * (docs/decisions/speed-mechanisms.md).
 */
import { STATUS_CODES } from 'node:http';
import { request } from 'undici';

type Fetch = typeof globalThis.fetch;

class ResponseHeaders {
  readonly #map = new Map<string, string>();

  constructor(raw: Record<string, string | string[] | undefined>) {
    for (const [name, value] of Object.entries(raw)) {
      if (value === undefined) continue;
      this.#map.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  entries(): IterableIterator<[string, string]> {
    return this.#map.entries();
  }

  keys(): IterableIterator<string> {
    return this.#map.keys();
  }

  values(): IterableIterator<string> {
    return this.#map.values();
  }

  forEach(fn: (value: string, name: string) => void): void {
    this.#map.forEach((value, name) => fn(value, name));
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
}

/** The part of a fetch Response the Web API client reads, over a body already read whole. */
class BufferedResponse {
  readonly ok: boolean;
  readonly statusText: string;
  readonly redirected = false;
  readonly type = 'basic';
  #bodyUsed = false;
  readonly #content: Buffer;

  constructor(
    readonly url: string,
    readonly status: number,
    readonly headers: ResponseHeaders,
    content: Buffer,
  ) {
    this.#content = content;
    this.ok = status >= 200 && status < 300;
    this.statusText = STATUS_CODES[status] ?? '';
  }

  get bodyUsed(): boolean {
    return this.#bodyUsed;
  }

  #take(): Buffer {
    if (this.#bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#bodyUsed = true;
    return this.#content;
  }

  async text(): Promise<string> {
    return this.#take().toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#take().toString('utf8')) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = this.#take();
    return body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  }
}

function plainHeaders(headers: RequestInit['headers']): Record<string, string> | undefined {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return undefined;
  return headers as Record<string, string>;
}

/** A `fetch` for `WebClient`'s `fetch` option; see the module comment. */
export function createRequestFetch(fallback: Fetch = globalThis.fetch): Fetch {
  async function requestFetch(input: Parameters<Fetch>[0], init?: RequestInit): Promise<Response> {
    const body = init?.body ?? undefined;
    const headers = plainHeaders(init?.headers);
    const simple =
      typeof input === 'string' &&
      init?.redirect === 'error' &&
      headers !== undefined &&
      (body === undefined || body === null || typeof body === 'string' || Buffer.isBuffer(body));
    if (!simple) return fallback(input, init);

    const answer = await request(input, {
      method: (init?.method ?? 'GET') as 'GET',
      headers,
      body: body ?? undefined,
      signal: init?.signal ?? undefined,
    });
    const content = Buffer.from(await answer.body.arrayBuffer());
    if (answer.statusCode >= 300 && answer.statusCode < 400) {
      throw new TypeError(`fetch failed: redirect (${answer.statusCode}) refused`);
    }
    const response = new BufferedResponse(
      input,
      answer.statusCode,
      new ResponseHeaders(answer.headers),
      content,
    );
    return response as unknown as Response;
  }
  return requestFetch as Fetch;
}
