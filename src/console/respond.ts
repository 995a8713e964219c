/** Responses of the console: HTML with strict security headers, redirects, plain errors. */
import type { ServerResponse } from 'node:http';
import type { Html } from './html.js';

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function sendHtml(
  res: ServerResponse,
  status: number,
  page: Html,
  cookies: string[] = [],
): void {
  const body = page.text;
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(cookies.length ? { 'set-cookie': cookies } : {}),
  });
  res.end(body);
}

export function redirect(res: ServerResponse, location: string, cookies: string[] = []): void {
  res.writeHead(303, {
    ...SECURITY_HEADERS,
    location,
    'content-length': 0,
    ...(cookies.length ? { 'set-cookie': cookies } : {}),
  });
  res.end();
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  type = 'text/plain',
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
