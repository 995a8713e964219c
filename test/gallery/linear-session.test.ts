/**
 * The Linear pictures of the gallery (docs/gallery/linear/), checked as every platform's are
 * (platform-pages.ts), and what only Linear's pages must show.
 */
import { describe, expect, it } from 'vitest';
import { linearSessionIndex, linearSessionPages } from '../../gallery/linear-session.js';
import { itMatchesItsPages } from './platform-pages.js';

const pages = linearSessionPages();

describe('gallery: what Linear shows', () => {
  itMatchesItsPages('linear', pages, linearSessionIndex);

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
