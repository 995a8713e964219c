/**
 * The one base of the relay's errors. Each error class names its failures with a stable
 * snake_case `code` (a union per class); callers, logs and metrics branch on `code` (and the
 * class's own fields), never on the message text, which is for people.
 */
export class RelayError<C extends string = string> extends Error {
  override readonly name: string = 'RelayError';
  readonly code: C;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
