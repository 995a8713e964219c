/**
 * Every test fails when a fake was sent a request its platform's published description refuses
 * (`src/fakes/published.ts`), whatever the product made of the fake's answer. A test that sends
 * one on purpose takes it with `takeRefusals()` first.
 */
import { afterAll, afterEach } from 'vitest';
import { describeRefusal, takeRefusals } from '../../src/fakes/published.js';

function noneLeft(): void {
  const left = takeRefusals();
  if (left.length === 0) return;
  throw new Error(
    `a fake was sent what its platform's published description refuses:\n${left
      .map(describeRefusal)
      .join('\n')}`,
  );
}

afterEach(noneLeft);
// What a file's last teardown (closing a relay that still delivered) sent.
afterAll(noneLeft);
