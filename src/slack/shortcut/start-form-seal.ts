/**
 * The start form's private metadata (where the run goes, and for whom the form was opened),
 * sealed with an HMAC so a submission can only name a place the relay itself put there:
 * `v1.<payload>.<mac>`, both base64url, the MAC over the payload with a key derived from a
 * secret the service already holds (the signing secret). A form is good for a day.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { StartPlace } from './start-form.js';

const MAX_AGE_MS = 24 * 60 * 60_000;

export interface StartFormSeal {
  seal(place: StartPlace, now: number): string;
  /** The place, when the metadata is the relay's and not older than a day. */
  open(metadata: string, now: number): StartPlace | undefined;
}

export function createStartFormSeal(secret: string): StartFormSeal {
  const key = createHmac('sha256', secret).update('agent-relay start form v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    seal(place, now) {
      const payload = Buffer.from(JSON.stringify({ ...place, at: now })).toString('base64url');
      return `v1.${payload}.${mac(payload).toString('base64url')}`;
    },
    open(metadata, now) {
      const [version, payload, tag, ...rest] = metadata.split('.');
      if (version !== 'v1' || !payload || !tag || rest.length > 0) return undefined;
      const given = Buffer.from(tag, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      const at = (parsed as { at?: unknown }).at;
      if (typeof at !== 'number' || now - at > MAX_AGE_MS || at - now > 60_000) return undefined;
      const place = StartPlace.safeParse(parsed);
      return place.success ? place.data : undefined;
    },
  };
}
