/**
 * A deadline for the store work of one caller. An HTTP request that must be answered in time
 * (Slack gives 3 s) runs its store calls under `withDeadline`: it is answered with a `busy`
 * StoreError when the database has not answered by then, and no statement of that work starts
 * after the deadline (so a write that waited behind a lock never lands after the caller was
 * told it failed). Work outside a deadline scope is not affected.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreError } from './errors.js';

const scope = new AsyncLocalStorage<number>();

/** Epoch ms by which the current work must have finished, if it runs under a deadline. */
export function currentDeadline(): number | undefined {
  return scope.getStore();
}

export function deadlineError(): StoreError {
  return new StoreError('busy', 'the database did not answer in time (it is locked or busy)');
}

export async function withDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + ms;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(deadlineError()), ms);
  });
  const work = scope.run(deadline, fn);
  // The work goes on in the background after the deadline only to fail its next statement.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
