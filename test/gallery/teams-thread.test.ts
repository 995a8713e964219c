/**
 * The Teams pictures of the gallery (docs/gallery/teams/), checked as every platform's are
 * (platform-pages.ts), and what only Teams's pages must show.
 */
import { describe, expect, it } from 'vitest';
import { teamsThreadIndex, teamsThreadPages } from '../../gallery/teams-thread.js';
import { itMatchesItsPages } from './platform-pages.js';

const pages = teamsThreadPages();

describe('gallery: what Teams shows', () => {
  itMatchesItsPages('teams', pages, teamsThreadIndex);

  it('the reply mentions the requester; only the working card has Stop and Cancel; no script', () => {
    for (const page of pages) {
      expect(page.html).not.toMatch(/<script/i);
      const last = page.activities.at(-1)!;
      if (page.name !== 'teams-working') expect(last.text).toMatch(/^<at>Alice Park<\/at> /);
      expect(page.html.includes('>Stop<')).toBe(page.name === 'teams-working');
    }
  });
});
