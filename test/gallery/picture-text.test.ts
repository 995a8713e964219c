/**
 * Every picture of the gallery (docs/gallery/, its conversations, Linear and Jira pages: the
 * HTML each picture was taken of) reads like a real team's day: no emulator marker (`[fail]`,
 * `[slow]`, …) in what it shows, no run that took "0s", and no two different runs under one
 * short id. The text is read as a browser shows it (tags, styles and comments left out).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { galleryPages } from '../../gallery/pages.js';
import { markersIn, sharedShortIds, visibleText, zeroDurations } from './picture-text.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'gallery');

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

const pages = htmlFiles(DIR).map((path) => ({
  name: relative(DIR, path),
  text: visibleText(readFileSync(path, 'utf8')),
}));

describe('what the gallery’s pictures show', () => {
  it('covers every kind of picture: single messages, conversations, Linear and Jira', () => {
    const folders = new Set(pages.map((p) => p.name.split('/')[0]));
    expect([...folders].sort()).toEqual(
      expect.arrayContaining(['conversations', 'html', 'jira', 'linear']),
    );
  });

  it.each(pages.map((p) => [p.name, p] as const))('%s: no emulator marker, no 0s', (_, page) => {
    expect(markersIn(page.text)).toEqual([]);
    expect(zeroDurations(page.text)).toEqual([]);
  });

  it.each(pages.map((p) => [p.name, p] as const))('%s: one run per short id', (_, page) => {
    expect(sharedShortIds(page.text)).toEqual([]);
  });

  it('the checks see what they look for', () => {
    expect(markersIn(visibleText('<p>Migrate the tables <b>[FAIL]</b></p>'))).toEqual(['[fail]']);
    expect(markersIn(visibleText('<!-- [slow] --><p>Migrate</p>'))).toEqual([]);
    expect(zeroDurations('Succeeded after 0s: x · 0s')).toHaveLength(2);
    expect(zeroDurations('Succeeded after 10s, in 2m 0s')).toEqual([]);
    const a = 'a1b2c3d4-0000-4000-8000-000000000061';
    const b = 'a1b2c3d4-1111-4000-8000-000000000062';
    expect(sharedShortIds(`${a} ${b} ${a}`)).toEqual(['a1b2c3d4']);
    expect(sharedShortIds(`${a} ${a}`)).toEqual([]);
  });

  it('the single-message scenes, as data: no marker in any title, prompt or text', () => {
    for (const page of galleryPages()) {
      expect({
        page: page.sample.name,
        markers: markersIn(JSON.stringify(page.sample.model)),
      }).toEqual({
        page: page.sample.name,
        markers: [],
      });
    }
  });
});
