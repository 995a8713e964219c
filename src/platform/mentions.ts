/**
 * Mentions made harmless: `@name` in text the relay repeats (the agent's words, a person's
 * request, a title) reads as written but notifies no one. A zero-width space goes after the
 * `@`; an e-mail address keeps its `@` untouched. GitHub, Linear and Jira all read `@word`
 * as a mention in Markdown they render.
 */

/** A zero-width space: `@\u200bname` looks like a mention but does not notify anyone. */
const ZWSP = '\u200b';

/** Neutralise `@login` and `@org/team` mentions. An e-mail address keeps its `@`. */
export function neutraliseMentions(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9])@(?=[A-Za-z0-9])/g, `$1@${ZWSP}`);
}
