/**
 * A minimal Socket Mode server on loopback: a WebSocket endpoint (RFC 6455 handshake and
 * text frames, written here because no WebSocket server package is installed) that says
 * `hello`, sends envelopes, and records the client's acknowledgements.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface FakeSocketMode {
  /** `ws://127.0.0.1:PORT/link` for apps.connections.open. */
  url: string;
  /** Messages the client sent (acks), parsed. */
  received: Record<string, unknown>[];
  /** Send an envelope to the connected client. */
  send(message: Record<string, unknown>): void;
  connected(): boolean;
  close(): Promise<void>;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([
            Buffer.from([0x80 | opcode, 127]),
            Buffer.alloc(4),
            Buffer.from([len >>> 24, (len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff]),
          ]);
  return Buffer.concat([head, payload]);
}

/** Parse complete client frames from `buf`; returns the frames and the unread rest. */
function readFrames(buf: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const b0 = buf[at] ?? 0;
    const b1 = buf[at + 1] ?? 0;
    let len = b1 & 0x7f;
    let pos = at + 2;
    if (len === 126) {
      if (buf.length - pos < 2) break;
      len = buf.readUInt16BE(pos);
      pos += 2;
    } else if (len === 127) {
      if (buf.length - pos < 8) break;
      len = Number(buf.readBigUInt64BE(pos));
      pos += 8;
    }
    const masked = (b1 & 0x80) !== 0;
    const maskLen = masked ? 4 : 0;
    if (buf.length - pos < maskLen + len) break;
    const mask = buf.subarray(pos, pos + maskLen);
    const payload = Buffer.from(buf.subarray(pos + maskLen, pos + maskLen + len));
    if (masked)
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
    frames.push({ opcode: b0 & 0x0f, payload });
    at = pos + maskLen + len;
  }
  return { frames, rest: buf.subarray(at) };
}

export async function startFakeSocketMode(): Promise<FakeSocketMode> {
  const received: Record<string, unknown>[] = [];
  let socket: Duplex | undefined;
  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, sock: Duplex) => {
    const key = req.headers['sec-websocket-key'];
    if (typeof key !== 'string') return void sock.destroy();
    const accept = createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    sock.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket = sock;
    let pending: Buffer = Buffer.alloc(0);
    sock.on('data', (chunk: Buffer) => {
      const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const f of frames) {
        if (f.opcode === 0x1)
          received.push(JSON.parse(f.payload.toString('utf8')) as Record<string, unknown>);
        if (f.opcode === 0x9) sock.write(frame(0xa, f.payload));
        if (f.opcode === 0x8) {
          sock.write(frame(0x8, f.payload));
          sock.end();
        }
      }
    });
    sock.on('error', () => undefined);
    sock.on('close', () => {
      if (socket === sock) socket = undefined;
    });
    sock.write(frame(0x1, Buffer.from(JSON.stringify({ type: 'hello', num_connections: 1 }))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/link`,
    received,
    send(message) {
      socket?.write(frame(0x1, Buffer.from(JSON.stringify(message))));
    },
    connected: () => socket !== undefined,
    close: () =>
      new Promise<void>((resolve) => {
        socket?.destroy();
        server.close(() => resolve());
      }),
  };
}
