/** Checks the client's construction options; a bad option fails fast with a clear message. */
export interface CheckedOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  maxRetries?: number;
  userAgent?: string;
}

// Control characters would let a value inject headers (and undici rejects them anyway).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export function validateClientOptions(options: CheckedOptions): void {
  let url: URL | undefined;
  try {
    url = new URL(options.baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError('agent client: baseUrl must be an absolute http(s) URL');
  }
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('agent client: apiKey must be a non-empty string');
  }
  if (CONTROL_CHARS.test(options.apiKey)) {
    throw new TypeError('agent client: apiKey contains control characters');
  }
  if (options.userAgent !== undefined && CONTROL_CHARS.test(options.userAgent)) {
    throw new TypeError('agent client: userAgent contains control characters');
  }
  const { timeoutMs, maxRetries } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError('agent client: timeoutMs must be a positive number');
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new TypeError('agent client: maxRetries must be a non-negative integer');
  }
}
