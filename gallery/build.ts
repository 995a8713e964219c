/**
 * `npm run gallery`: writes docs/gallery/ (one HTML page and one PNG per message the relay
 * posts, and README.md, the index) and docs/gallery/conversations/ (whole conversations
 * recorded from the real relay against the fakes, conversations.ts; `--no-conversations`
 * skips them). The PNGs are taken with headless Chromium driven by
 * playwright-core; `--html-only` skips them (the snapshot test checks the HTML).
 *
 * Chromium: `--chromium=<path>`, else the first of `chromium`, `chromium-browser` on the PATH.
 * The pictures need the Noto Color Emoji font (emoji-font.ts); the build stops, saying how to
 * install it, when fontconfig does not list it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emojiFontProblem } from './emoji-font.js';
import { galleryIndex, galleryPages } from './pages.js';
import { conversationPage, conversationsIndex } from './conversation-html.js';
import { recordConversations } from './conversations.js';
import { linearPictureHashes, pictureHashes } from './pictures.js';
import { linearSessionIndex, linearSessionPages } from './linear-session.js';
import { jiraIssueIndex, jiraIssuePages } from './jira-issue.js';
import { teamsThreadIndex, teamsThreadPages } from './teams-thread.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GALLERY_DIR = join(ROOT, 'docs', 'gallery');

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function findChromium(): string {
  const given = process.argv.find((a) => a.startsWith('--chromium='))?.slice('--chromium='.length);
  if (given) return given;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // not this one
    }
  }
  throw new Error(
    'No Chromium found: install it (Debian: apt-get install chromium) or pass --chromium=<path>.',
  );
}

async function main(): Promise<void> {
  const htmlOnly = process.argv.includes('--html-only');
  const pages = galleryPages();
  mkdirSync(join(GALLERY_DIR, 'html'), { recursive: true });
  for (const page of pages) {
    writeFileSync(join(GALLERY_DIR, 'html', `${page.sample.name}.html`), page.html);
  }
  writeFileSync(join(GALLERY_DIR, 'README.md'), galleryIndex(pages));
  const linear = linearSessionPages();
  const linearDir = join(GALLERY_DIR, 'linear');
  mkdirSync(linearDir, { recursive: true });
  for (const page of linear) writeFileSync(join(linearDir, `${page.name}.html`), page.html);
  writeFileSync(join(linearDir, 'README.md'), linearSessionIndex(linear));
  const jira = jiraIssuePages();
  const jiraDir = join(GALLERY_DIR, 'jira');
  mkdirSync(jiraDir, { recursive: true });
  for (const page of jira) writeFileSync(join(jiraDir, `${page.name}.html`), page.html);
  writeFileSync(join(jiraDir, 'README.md'), jiraIssueIndex(jira));
  const teams = teamsThreadPages();
  const teamsDir = join(GALLERY_DIR, 'teams');
  mkdirSync(teamsDir, { recursive: true });
  for (const page of teams) writeFileSync(join(teamsDir, `${page.name}.html`), page.html);
  writeFileSync(join(teamsDir, 'README.md'), teamsThreadIndex(teams));
  if (htmlOnly) {
    console.log(`gallery: ${pages.length} HTML pages in docs/gallery/html`);
    return;
  }
  const fontProblem = emojiFontProblem();
  if (fontProblem !== undefined) {
    console.error(`gallery: no pictures taken. ${fontProblem}`);
    process.exitCode = 1;
    return;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  try {
    const context = await browser.newContext({ deviceScaleFactor: 1, javaScriptEnabled: false });
    const tab = await context.newPage();
    for (const page of pages) {
      await tab.setContent(page.html, { waitUntil: 'load' });
      await tab
        .locator('#frame')
        .screenshot({ path: join(GALLERY_DIR, `${page.sample.name}.png`), animations: 'disabled' });
    }
    for (const page of linear) {
      await tab.setContent(page.html, { waitUntil: 'load' });
      await tab
        .locator('#session')
        .screenshot({ path: join(linearDir, `${page.name}.png`), animations: 'disabled' });
    }
    writeFileSync(
      join(linearDir, 'pictures.json'),
      `${JSON.stringify(linearPictureHashes(linear), null, 2)}\n`,
    );
    for (const page of jira) {
      await tab.setContent(page.html, { waitUntil: 'load' });
      await tab
        .locator('#issue')
        .screenshot({ path: join(jiraDir, `${page.name}.png`), animations: 'disabled' });
    }
    writeFileSync(
      join(jiraDir, 'pictures.json'),
      `${JSON.stringify(linearPictureHashes(jira), null, 2)}\n`,
    );
    for (const page of teams) {
      await tab.setContent(page.html, { waitUntil: 'load' });
      await tab
        .locator('#thread')
        .screenshot({ path: join(teamsDir, `${page.name}.png`), animations: 'disabled' });
    }
    writeFileSync(
      join(teamsDir, 'pictures.json'),
      `${JSON.stringify(linearPictureHashes(teams), null, 2)}\n`,
    );
    if (!process.argv.includes('--no-conversations')) {
      const conversations = await recordConversations();
      const dir = join(GALLERY_DIR, 'conversations');
      mkdirSync(dir, { recursive: true });
      for (const c of conversations) {
        const html = conversationPage(c);
        writeFileSync(join(dir, `${c.name}.html`), html);
        await tab.setContent(html, { waitUntil: 'load' });
        await tab
          .locator('#conversation')
          .screenshot({ path: join(dir, `${c.name}.png`), animations: 'disabled' });
      }
      writeFileSync(join(dir, 'README.md'), `${conversationsIndex(conversations)}\n`);
      console.log(`gallery: ${conversations.length} conversations in docs/gallery/conversations`);
    }
  } finally {
    await browser.close();
  }
  writeFileSync(
    join(GALLERY_DIR, 'pictures.json'),
    `${JSON.stringify(pictureHashes(pages), null, 2)}\n`,
  );
  console.log(`gallery: ${pages.length} pictures in docs/gallery`);
}

await main();
