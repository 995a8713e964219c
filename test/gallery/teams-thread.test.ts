/**
 * The Teams pictures of the gallery (docs/gallery/teams/): the pages are regenerated from the
 * relay's own Teams renderer and compared with the checked-in ones, and each picture must have
 * been taken of its page as it is now (by hash; no browser needed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamsThreadIndex, teamsThreadPages } from '../../gallery/teams-thread.js';
import { linearPictureHashes } from '../../gallery/pictures.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'gallery', 'teams');
const pages = teamsThreadPages();

describe('gallery: what Teams shows', () => {
  it.each(pages.map((p) => [p.name, p] as const))('%s matches its page', async (name, page) => {
    await expect(page.html).toMatchFileSnapshot(join(DIR, `${name}.html`));
  });

  it('the index lists every picture, and each was taken of its page as it is now', async () => {
    await expect(teamsThreadIndex(pages)).toMatchFileSnapshot(join(DIR, 'README.md'));
    const recorded = JSON.parse(readFileSync(join(DIR, 'pictures.json'), 'utf8')) as unknown;
    expect(recorded).toEqual(linearPictureHashes(pages));
    for (const page of pages) expect(existsSync(join(DIR, `${page.name}.png`))).toBe(true);
  });

  it('the reply mentions the requester; only the working card has Stop and Cancel; no script', () => {
    for (const page of pages) {
      expect(page.html).not.toMatch(/<script/i);
      const last = page.activities.at(-1)!;
      if (page.name !== 'teams-working') expect(last.text).toMatch(/^<at>Alice Park<\/at> /);
      expect(page.html.includes('>Stop<')).toBe(page.name === 'teams-working');
    }
  });
});
