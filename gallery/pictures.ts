/**
 * Which page each picture was taken of: the SHA-256 of its HTML, recorded by `npm run
 * gallery` in docs/gallery/pictures.json, so a test without a browser can tell a stale one.
 */
import { createHash } from 'node:crypto';
import type { GalleryPage } from './pages.js';

export function pictureHashes(pages: GalleryPage[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const page of pages) {
    out[page.sample.name] = createHash('sha256').update(page.html).digest('hex');
  }
  return out;
}

/** The same for the Linear session pages (docs/gallery/linear/pictures.json). */
export function linearPictureHashes(
  pages: { name: string; html: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const page of pages) out[page.name] = createHash('sha256').update(page.html).digest('hex');
  return out;
}
