/**
 * The start form's private metadata (where the run goes, and for whom the form was opened),
 * sealed with an HMAC so a submission can only name a place the relay itself put there:
 * `v1.<payload>.<mac>`, both base64url, the MAC over the payload with a key derived from a
 * secret the service already holds (the signing secret). A form is good for a day.
 */
import { createSignedState, purposeKey } from '../../platform/signed-state.js';
import { StartPlace } from './start-form.js';

const MAX_AGE_MS = 24 * 60 * 60_000;

export interface StartFormSeal {
  seal(place: StartPlace, now: number): string;
  /** The place, when the metadata is the relay's and not older than a day. */
  open(metadata: string, now: number): StartPlace | undefined;
}

export function createStartFormSeal(secret: string): StartFormSeal {
  const signed = createSignedState(purposeKey(secret, 'agent-relay start form v1'));
  return {
    seal(place, now) {
      return `v1.${signed.seal({ ...place, at: now })}`;
    },
    open(metadata, now) {
      if (!metadata.startsWith('v1.')) return undefined;
      const parsed = signed.open(metadata.slice(3));
      const at = (parsed as { at?: unknown } | undefined)?.at;
      if (typeof at !== 'number' || now - at > MAX_AGE_MS || at - now > 60_000) return undefined;
      const place = StartPlace.safeParse(parsed);
      return place.success ? place.data : undefined;
    },
  };
}
