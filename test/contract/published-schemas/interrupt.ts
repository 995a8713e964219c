/**
 * The published shape of `POST /agent/runs/{runId}/interrupt`, in zod, to check the emulator
 * against. The newest official SDK adds the endpoint (no request body; 202 when the current
 * turn is stopped and the run stays open for follow-ups); the OpenAPI file does not describe it
 * yet, so its answer body is not relied on (the emulator sends the run's id and new state).
 * Refusals are the description's `Error` object (RFC 7807 problem details): `PublishedError`
 * (problem-error.ts).
 */
import { z } from 'zod';

/** 202: accepted. Any JSON the service sends alongside is tolerated. */
export const InterruptAcceptedSchema = z.union([
  z.string(),
  z.looseObject({ run_id: z.string().optional(), state: z.string().optional() }),
]);

/** The statuses the endpoint answers besides 202. */
export const INTERRUPT_REFUSALS = {
  noTurnRunning: 400,
  unknownRun: 404,
  notStartedYet: 409,
  notInterruptible: 422,
} as const;
