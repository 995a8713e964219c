/** What a promise rejects with, for tests that look into the error. */
import { expect } from 'vitest';

/** The error `promise` rejects with, checked to be a `type`; fails when it resolves. */
export async function rejectionOf<E>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}
