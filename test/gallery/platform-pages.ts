/**
 * What every platform's gallery pictures are checked for (docs/gallery/<platform>/): each page
 * regenerated from the relay's own renderer matches its checked-in HTML, the index lists every
 * picture, and each picture was taken of its page as it is now (by hash; no browser needed).
 * Call inside the platform's `describe`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { linearPictureHashes } from '../../gallery/pictures.js';

export function itMatchesItsPages<P extends { name: string; html: string }>(
  platform: string,
  pages: P[],
  index: (pages: P[]) => string,
): void {
  const dir = join(import.meta.dirname, '..', '..', 'docs', 'gallery', platform);

  it.each(pages.map((p) => [p.name, p] as const))('%s matches its page', async (name, page) => {
    await expect(page.html).toMatchFileSnapshot(join(dir, `${name}.html`));
  });

  it('the index lists every picture, and each was taken of its page as it is now', async () => {
    await expect(index(pages)).toMatchFileSnapshot(join(dir, 'README.md'));
    const recorded = JSON.parse(readFileSync(join(dir, 'pictures.json'), 'utf8')) as unknown;
    expect(recorded).toEqual(linearPictureHashes(pages));
    for (const page of pages) expect(existsSync(join(dir, `${page.name}.png`))).toBe(true);
  });
}
