/**
 * The gallery (docs/gallery/) shows what people see. Its HTML is regenerated here and
 * compared with the checked-in pages, so a renderer change fails until its pictures were
 * looked at and regenerated (`npm run gallery`, then `npx vitest run test/gallery -u`).
 * No browser is needed: the pictures are checked by the hash of the page they were taken of.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { galleryIndex, galleryPages } from '../../gallery/pages.js';
import { pictureHashes } from '../../gallery/pictures.js';
import type { MessageModel } from '../../src/core/message/message-model.js';
import { shortRunId } from '../../src/core/message/short-run-id.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'gallery');
const pages = galleryPages();

describe('gallery', () => {
  it.each(pages.map((p) => [p.sample.name, p] as const))(
    '%s matches its page',
    async (name, page) => {
      await expect(page.html).toMatchFileSnapshot(join(DIR, 'html', `${name}.html`));
    },
  );

  it('the index lists every picture', async () => {
    await expect(galleryIndex(pages)).toMatchFileSnapshot(join(DIR, 'README.md'));
  });

  it('every picture was taken of the page as it is now', () => {
    const recorded = JSON.parse(readFileSync(join(DIR, 'pictures.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(recorded).toEqual(pictureHashes(pages));
    for (const page of pages) expect(existsSync(join(DIR, `${page.sample.name}.png`))).toBe(true);
  });

  it('shows every kind of message on each platform', () => {
    const kinds = (platform: string) =>
      new Set(pages.filter((p) => p.sample.platform === platform).map((p) => p.sample.model.type));
    const all: MessageModel['type'][] = [
      'run_status',
      'run_outcome',
      'followup_sent',
      'run_list',
      'config',
      'help',
      'notice',
      'factory_choice',
      'run_brief',
      'review',
    ];
    expect([...kinds('slack')].sort()).toEqual([...all, 'run_choice'].sort());
    // A run choice answers a slash command: Slack only.
    expect([...kinds('github')].sort()).toEqual([...all].sort());
  });

  it('no page shows two different runs under one short id', () => {
    for (const page of pages) {
      const model = page.sample.model as { runs?: { runId: string }[] };
      const ids = (model.runs ?? []).map((r) => r.runId);
      const short = new Set(ids.map((id) => shortRunId(id)));
      expect(short.size, page.sample.name).toBe(new Set(ids).size);
    }
    expect(
      pages.some((p) => ((p.sample.model as { runs?: unknown[] }).runs?.length ?? 0) > 1),
    ).toBe(true);
  });

  it('user text stays text: nothing from a message becomes markup of the page', () => {
    for (const page of pages) {
      expect(page.html).not.toMatch(/<script/i);
      expect(page.html).not.toMatch(/\son\w+=/i);
    }
  });
});
