/**
 * The Jira pictures of the gallery (docs/gallery/jira/): the pages are regenerated from the
 * relay's own Jira renderer and compared with the checked-in ones, and each picture must have
 * been taken of its page as it is now (by hash; no browser needed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jiraIssueIndex, jiraIssuePages } from '../../gallery/jira-issue.js';
import { linearPictureHashes } from '../../gallery/pictures.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'gallery', 'jira');
const pages = jiraIssuePages();

describe('gallery: what Jira shows', () => {
  it.each(pages.map((p) => [p.name, p] as const))('%s matches its page', async (name, page) => {
    await expect(page.html).toMatchFileSnapshot(join(DIR, `${name}.html`));
  });

  it('the index lists every picture, and each was taken of its page as it is now', async () => {
    await expect(jiraIssueIndex(pages)).toMatchFileSnapshot(join(DIR, 'README.md'));
    const recorded = JSON.parse(readFileSync(join(DIR, 'pictures.json'), 'utf8')) as unknown;
    expect(recorded).toEqual(linearPictureHashes(pages));
    for (const page of pages) expect(existsSync(join(DIR, `${page.name}.png`))).toBe(true);
  });

  it('the outcome mentions the requester with a mention node; nothing becomes a script', () => {
    for (const page of pages) {
      expect(JSON.stringify(page.comments[1])).toContain('"type":"mention"');
      expect(page.html).not.toMatch(/<script/i);
    }
  });
});
