/**
 * Every test fails when a fake was sent a request its platform's published description refuses
 * (`src/fakes/published.ts`), whatever the product made of the fake's answer. A test that sends
 * one on purpose takes it with `takeRefusals()` first.
 */
import { afterAll, afterEach } from 'vitest';
import { assertNoRefusals } from '../../src/fakes/published.js';

afterEach(assertNoRefusals);
// What a file's last teardown (closing a relay that still delivered) sent.
afterAll(assertNoRefusals);
