/** Injected randomness: ids for relay requests, jitter. */
export interface Random {
  id(): string;
  /** A float in [0, 1). */
  float(): number;
}
