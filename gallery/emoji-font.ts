/**
 * The pictures are taken with the Noto Color Emoji font: Chromium finds fonts through
 * fontconfig, and without an emoji font every emoji in a message renders as an empty box, so
 * the pictures would change for a reason that has nothing to do with the relay. The build
 * checks for the font before it starts the browser and says how to install it.
 */
import { execFileSync } from 'node:child_process';

export const EMOJI_FONT = 'Noto Color Emoji';

export const EMOJI_FONT_INSTALL =
  'Debian and Ubuntu: apt-get install fonts-noto-color-emoji; ' +
  'Fedora: dnf install google-noto-color-emoji-fonts';

/** Why the pictures cannot be taken as committed, or undefined when the font is there. */
export function emojiFontProblem(): string | undefined {
  let families: string;
  try {
    families = execFileSync('fc-list', [EMOJI_FONT, 'family'], { encoding: 'utf8' });
  } catch {
    return `fc-list (fontconfig) is not available, so the ${EMOJI_FONT} font cannot be checked.`;
  }
  if (families.includes(EMOJI_FONT)) return undefined;
  return (
    `The ${EMOJI_FONT} font is not installed: without it every emoji renders as a box and the ` +
    `pictures change. Install it (${EMOJI_FONT_INSTALL}) and run the gallery again.`
  );
}
