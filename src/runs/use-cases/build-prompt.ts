/**
 * The prompt a run gets: the person's words first, then the conversation it came from
 * (docs/architecture.md, "Context the agent gets"), each part bounded, the whole within `maxChars`.
 * The person's words are never cut; the context is, from its end.
 */
import type { TriggerContext } from '../../core/trigger.js';

export interface ThreadMessage {
  author: string;
  text: string;
  isBot?: boolean;
}

export const CONTEXT_LIMITS = {
  threadMessages: 30,
  threadMessageChars: 1_500,
  threadChars: 8_000,
  issueBodyChars: 6_000,
  commentChars: 3_000,
  diffHunkChars: 4_000,
} as const;

const TRUNCATED = '… [truncated]';

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - TRUNCATED.length)) + TRUNCATED;
}

/** The end of a diff hunk is the commented line: keep the tail. */
function clipTail(text: string, max: number): string {
  if (text.length <= max) return text;
  return '[earlier lines omitted]\n' + text.slice(text.length - max);
}

function threadSection(
  messages: ThreadMessage[],
  head = 'Earlier messages in the Slack thread (oldest first):',
): string | undefined {
  const recent = messages.slice(-CONTEXT_LIMITS.threadMessages);
  const lines: string[] = [];
  let used = 0;
  // Newest first while counting, so the budget keeps the messages closest to the request.
  for (const m of [...recent].reverse()) {
    const who = m.isBot ? `${m.author} (bot)` : m.author;
    const line = `- ${who}: ${clip(m.text.trim(), CONTEXT_LIMITS.threadMessageChars)}`;
    if (used + line.length > CONTEXT_LIMITS.threadChars) break;
    used += line.length + 1;
    lines.unshift(line);
  }
  if (lines.length === 0) return undefined;
  const omitted = messages.length - lines.length;
  return [head, ...(omitted > 0 ? [`[${omitted} earlier message(s) omitted]`] : []), ...lines].join(
    '\n',
  );
}

function issueSection(issue: NonNullable<TriggerContext['issue']>): string {
  const kind = issue.isPullRequest ? 'Pull request' : 'Issue';
  const lines = [`${kind} ${issue.repo}#${issue.number}: ${issue.title}`, `URL: ${issue.url}`];
  if (issue.isPullRequest && (issue.headRef || issue.baseRef)) {
    lines.push(`Branches: ${issue.headRef ?? '?'} -> ${issue.baseRef ?? '?'}`);
  }
  const body = issue.body.trim();
  lines.push('', body ? clip(body, CONTEXT_LIMITS.issueBodyChars) : '(no description)');
  return lines.join('\n');
}

function reviewSection(review: NonNullable<TriggerContext['review']>): string {
  const where = review.line === undefined ? review.path : `${review.path} line ${review.line}`;
  const hunk = clipTail(review.diffHunk, CONTEXT_LIMITS.diffHunkChars);
  return [`Review comment on ${where}. Diff hunk:`, '```diff', hunk, '```'].join('\n');
}

export function buildPrompt(input: {
  prompt: string;
  context: TriggerContext;
  /** Thread history fetched by the core when the trigger carried none. */
  threadMessages?: ThreadMessage[];
  maxChars: number;
}): string {
  const { context } = input;
  const sections: string[] = [];
  const thread = input.threadMessages ?? context.threadMessages;
  if (thread && thread.length > 0) {
    const s = threadSection(thread);
    if (s) sections.push(s);
  }
  if (context.viewingChannel) {
    const { id, messages } = context.viewingChannel;
    const head = `The person was looking at Slack channel ${id} ("this channel"); its latest messages (oldest first):`;
    const latest = messages && messages.length > 0 ? threadSection(messages, head) : undefined;
    sections.push(latest ?? `The person was looking at Slack channel ${id} ("this channel").`);
  }
  if (context.issue) sections.push(issueSection(context.issue));
  if (context.review) sections.push(reviewSection(context.review));
  if (context.comment) {
    const body = clip(context.comment.body.trim(), CONTEXT_LIMITS.commentChars);
    sections.push(`The comment that asked for this run (${context.comment.url}):\n${body}`);
  } else if (context.permalink) {
    sections.push(`Requested from: ${context.permalink}`);
  }
  const prompt = input.prompt.trim();
  if (sections.length === 0) return prompt;
  const full = `${prompt}\n\n---\nContext from the conversation where this run was requested:\n\n${sections.join('\n\n')}`;
  if (full.length <= input.maxChars) return full;
  if (prompt.length + TRUNCATED.length + 2 >= input.maxChars) return prompt;
  return full.slice(0, input.maxChars - TRUNCATED.length) + TRUNCATED;
}
