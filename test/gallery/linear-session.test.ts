/**
 * The Linear pictures of the gallery (docs/gallery/linear/): the pages are regenerated from
 * the relay's own Linear renderer and compared with the checked-in ones, and each picture
 * must have been taken of its page as it is now (by hash; no browser needed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linearSessionIndex, linearSessionPages } from '../../gallery/linear-session.js';
import { linearPictureHashes } from '../../gallery/pictures.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'gallery', 'linear');
const pages = linearSessionPages();

describe('gallery: what Linear shows', () => {
  it.each(pages.map((p) => [p.name, p] as const))('%s matches its page', async (name, page) => {
    await expect(page.html).toMatchFileSnapshot(join(DIR, `${name}.html`));
  });

  it('the index lists every picture, and each was taken of its page as it is now', async () => {
    await expect(linearSessionIndex(pages)).toMatchFileSnapshot(join(DIR, 'README.md'));
    const recorded = JSON.parse(readFileSync(join(DIR, 'pictures.json'), 'utf8')) as unknown;
    expect(recorded).toEqual(linearPictureHashes(pages));
    for (const page of pages) expect(existsSync(join(DIR, `${page.name}.png`))).toBe(true);
  });

  it('a session reads thought → actions → elicitation → reply → response; a failure ends in an error', () => {
    const kinds = (name: string) =>
      pages
        .find((p) => p.name === name)!
        .entries.map((e) => (e.prompt !== undefined ? 'prompt' : e.activity!.content.type));
    expect(kinds('linear-session')).toEqual([
      'thought',
      'action',
      'action',
      'elicitation',
      'prompt',
      'thought',
      'response',
    ]);
    expect(kinds('linear-session-error')).toEqual([
      'thought',
      'action',
      'action',
      'action',
      'error',
    ]);
    for (const page of pages) {
      expect(page.html).not.toMatch(/<script/i);
      // No ephemeral thought stays in view before a later activity (Linear replaces it).
      expect(page.entries.slice(0, -1).some((e) => e.activity?.ephemeral)).toBe(false);
    }
  });
});
