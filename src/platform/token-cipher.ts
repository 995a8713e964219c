/**
 * Seals a workspace's installation (its bot token above all) before it reaches the database:
 * AES-256-GCM with a key from the environment, a fresh 12-byte nonce per seal, and the
 * installation's key as associated data, so a sealed row copied onto another workspace's
 * row does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { RelayError } from '../core/relay-error.js';

const VERSION = 'v1';

export class SealError extends RelayError<'seal_invalid'> {
  override readonly name = 'SealError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('seal_invalid', message, options);
  }
}

export interface TokenCipher {
  seal(plain: string, associated: string): string;
  open(sealed: string, associated: string): string;
}

/** `base64Key`: 32 bytes, base64 (SLACK_TOKEN_ENCRYPTION_KEY). */
export function createTokenCipher(base64Key: string): TokenCipher {
  const key = Buffer.from(base64Key, 'base64');
  if (key.length !== 32) throw new SealError('the encryption key must be 32 bytes (base64)');
  return {
    seal(plain, associated) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(associated, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join('.');
    },
    open(sealed, associated) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new SealError('not a sealed installation');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
        decipher.setAAD(Buffer.from(associated, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        const plain = Buffer.concat([
          decipher.update(Buffer.from(body, 'base64')),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch (err) {
        throw new SealError('the installation does not open with this key', { cause: err });
      }
    },
  };
}
