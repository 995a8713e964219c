/**
 * Read a request body into a Buffer, refusing more than `maxBytes` (413) before buffering it.
 */
import type { IncomingMessage } from 'node:http';
import { RelayError } from '../core/relay-error.js';

export class BodyTooLargeError extends RelayError<'body_too_large'> {
  override readonly name = 'BodyTooLargeError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('body_too_large', message, options);
  }
}

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new BodyTooLargeError(`body of ${declared} bytes exceeds ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (size > maxBytes) throw new BodyTooLargeError(`body exceeds ${maxBytes} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
