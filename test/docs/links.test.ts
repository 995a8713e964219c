/**
 * The documentation holds together: every relative link in the README, docs/ and the folder
 * READMEs points at a file that exists (and, for a Markdown page, at a heading it has), and
 * every page in docs/ can be reached from the README and from docs/architecture.md.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'html' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const pages = [
  join(ROOT, 'README.md'),
  ...markdownFiles(join(ROOT, 'docs')),
  ...['src', 'test', 'bench', 'gallery'].flatMap((d) => markdownFiles(join(ROOT, d))),
];

/** Markdown without its fenced code blocks and inline code, where a link is no link. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string) =>
  new Set(
    [
      ...readFileSync(file, 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .matchAll(/^#{1,6} (.+)$/gm),
    ].map((m) => slug(m[1]!)),
  );

function links(file: string): { target: string; anchor?: string }[] {
  return [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [path, anchor] = href.split('#');
      return { target: path ? resolve(dirname(file), path) : file, anchor };
    });
}

describe('documentation links', () => {
  it('finds the pages to check', () => {
    expect(pages.length).toBeGreaterThan(20);
  });

  it.each(pages.map((p) => [relative(ROOT, p), p]))(
    '%s: every relative link resolves',
    (_, file) => {
      const broken: string[] = [];
      for (const { target, anchor } of links(file!)) {
        if (!existsSync(target)) broken.push(relative(ROOT, target));
        else if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor))
          broken.push(`${relative(ROOT, target)}#${anchor}`);
      }
      expect(broken).toEqual([]);
    },
  );

  it.each(['README.md', 'docs/architecture.md'])('%s links every page in docs/', (from) => {
    const linked = new Set(links(join(ROOT, from)).map((l) => l.target));
    const missing = markdownFiles(join(ROOT, 'docs'))
      .filter((page) => page !== join(ROOT, from) && !linked.has(page))
      .map((page) => relative(ROOT, page));
    expect(missing).toEqual([]);
  });

  it('points nowhere outside the repository, and at no issue number', () => {
    for (const file of pages) {
      const text = readFileSync(file, 'utf8');
      expect(text, relative(ROOT, file)).not.toContain('../shared');
      expect(text, relative(ROOT, file)).not.toMatch(/\bissue #?\d+\b/i);
    }
  });
});
