/** The in-process Linear session memory (a notifier given no store) keeps the store's contract. */
import { describe } from 'vitest';
import { createMemoryLinearSessions } from '../../src/core/ports/index.js';
import { linearSessionsCases } from '../store/linear-sessions-cases.js';

describe('in-process Linear sessions', () => {
  const memory = createMemoryLinearSessions();
  linearSessionsCases(
    () => memory,
    () => Promise.resolve(memory),
  );
});
