/**
 * A small request/response protocol over a forked child's IPC channel: the bench drives the
 * backends process (emulator and fake APIs) with it, so that their CPU work never runs on the
 * event loop that measures latency.
 */
import type { ChildProcess } from 'node:child_process';

interface RpcRequest {
  rpc: number;
  method: string;
  args: unknown;
}
interface RpcResponse {
  rpc: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly code = 'rpc_failed';
}

type Handlers<Api> = { [K in keyof Api]: Api[K] };
type AnyFn = (args: never) => Promise<unknown>;

/** In the child: answer requests with `handlers`. */
export function serveRpc<Api extends Record<string, AnyFn>>(handlers: Handlers<Api>): void {
  process.on('message', (raw: unknown) => {
    const req = raw as RpcRequest;
    if (typeof req?.rpc !== 'number') return;
    const handler = handlers[req.method] as ((args: unknown) => Promise<unknown>) | undefined;
    const send = (res: RpcResponse) => process.send?.(res);
    if (!handler) {
      send({ rpc: req.rpc, ok: false, error: `unknown method ${req.method}` });
      return;
    }
    handler(req.args).then(
      (result) => send({ rpc: req.rpc, ok: true, result }),
      (err: unknown) =>
        send({ rpc: req.rpc, ok: false, error: err instanceof Error ? err.stack : String(err) }),
    );
  });
}

export interface RpcClient<Api extends Record<string, AnyFn>> {
  call<K extends keyof Api & string>(
    method: K,
    args: Parameters<Api[K]>[0],
  ): Promise<Awaited<ReturnType<Api[K]>>>;
}

/** In the parent: call the child's handlers. */
export function rpcClient<Api extends Record<string, AnyFn>>(child: ChildProcess): RpcClient<Api> {
  let next = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (raw: unknown) => {
    const res = raw as RpcResponse;
    const waiter = pending.get(res?.rpc);
    if (!waiter) return;
    pending.delete(res.rpc);
    if (res.ok) waiter.resolve(res.result);
    else waiter.reject(new RpcError(res.error ?? 'remote error'));
  });
  child.on('exit', (code, signal) => {
    for (const waiter of pending.values()) {
      waiter.reject(new RpcError(`backends process exited (${code ?? signal})`));
    }
    pending.clear();
  });
  return {
    call(method, args) {
      const rpc = ++next;
      return new Promise((resolve, reject) => {
        pending.set(rpc, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ rpc, method, args } satisfies RpcRequest);
      });
    },
  };
}
