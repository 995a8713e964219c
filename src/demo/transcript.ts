/**
 * The demo's running commentary: every change on the fake Slack and GitHub printed the moment
 * it happens, labelled by thread, then each thread as it finally looks.
 */
import { issueOf } from '../fakes/github-rest-api.js';
import type { FakeGitHub, GitHubChange } from '../fakes/github-rest-api.js';
import type { FakeMessage, FakeSlackApi, SlackChange } from '../fakes/slack-web-api.js';
import { byBot, githubLines, slackLines } from './view.js';

export interface ThreadView {
  label: string;
  lines: string[];
}

export interface Transcript {
  /** A person's name for a Slack user id or a channel name for a channel id. */
  names: Map<string, string>;
  scene(title: string, what: string): void;
  slackThreads(): ThreadView[];
  githubThreads(): ThreadView[];
  printFinal(): void;
}

export function createTranscript(
  slack: FakeSlackApi,
  github: FakeGitHub,
  out: (line: string) => void,
): Transcript {
  const names = new Map<string, string>();
  const slackRoots: { channel: string; ts: string }[] = [];
  const issues: string[] = [];
  const name = (id: string) => names.get(id) ?? id;
  const rootOf = (m: FakeMessage) => m.thread_ts ?? m.ts;
  const slackLabel = (channel: string, ts: string) => {
    let i = slackRoots.findIndex((r) => r.channel === channel && r.ts === ts);
    if (i === -1) i = slackRoots.push({ channel, ts }) - 1;
    return `${name(channel)} thread ${i + 1}`;
  };
  const issueLabel = (issue: string) => {
    if (!issues.includes(issue)) issues.push(issue);
    return issue;
  };
  const show = (label: string, head: string, lines: string[]) => {
    out(`  ${label} │ ${head}${lines[0] ?? ''}`);
    for (const line of lines.slice(1, 6)) out(`  ${' '.repeat(label.length)} │   ${line}`);
  };

  /** An edit: the first two lines, and what is new since the version before (a button, a link). */
  const editedLines = (m: FakeMessage): string[] => {
    const now = slackLines(m, names);
    const before = m.history.at(-2);
    const was = new Set(
      before === undefined
        ? []
        : slackLines({ ...m, text: before.text, blocks: before.blocks ?? [] }, names),
    );
    const added = now.slice(2).filter((line) => !was.has(line));
    return [...now.slice(0, 2), ...added.map((line) => `+ ${line}`)];
  };

  slack.onChange((change: SlackChange) => {
    const m = change.message;
    const label = slackLabel(m.channel, rootOf(m));
    const to = m.onlyFor ? ` (only ${name(m.onlyFor)} sees this)` : '';
    if (change.kind === 'react')
      out(`  ${label} │ :${change.reaction}: on ${name(m.user ?? 'someone')}'s message`);
    else if (change.kind === 'unreact')
      out(`  ${label} │ :${change.reaction}: taken off ${name(m.user ?? 'someone')}'s message`);
    else if (change.kind === 'post') show(label, `agent-relay${to}: `, slackLines(m, names));
    else show(label, 'status message edited → ', editedLines(m));
  });
  github.onChange((change: GitHubChange) => {
    if (change.kind === 'react') {
      const on = change.reaction.target === 'issue' ? 'the issue' : 'the triggering comment';
      return out(`  ${issueLabel(change.issue)} │ :${change.reaction.content}: on ${on}`);
    }
    const label = issueLabel(issueOf(change.comment));
    const lines = githubLines(change.comment);
    if (change.kind === 'comment') show(label, `${change.comment.author} commented: `, lines);
    else show(label, 'comment edited → ', lines.slice(0, 2));
  });

  const slackThreads = () =>
    slackRoots.map(({ channel, ts }) => ({
      label: slackLabel(channel, ts),
      lines: slack.thread(channel, ts).flatMap((m) => {
        const who = byBot(m) ? 'agent-relay' : name(m.user ?? 'someone');
        const seen = m.onlyFor ? ` (only ${name(m.onlyFor)})` : '';
        const reactions = m.reactions.length
          ? `   [${m.reactions.map((r) => `:${r}:`).join(' ')}]`
          : '';
        const edits = m.history.length - 1;
        const edited = edits > 0 ? ` (edited ${edits}×)` : '';
        const [first = '', ...rest] = slackLines(m, names);
        return [`${who}${seen}${edited}: ${first}${reactions}`, ...rest.map((l) => `    ${l}`)];
      }),
    }));
  const githubThreads = () =>
    issues.map((issue) => ({
      label: issue,
      lines: [...github.comments.values()]
        .filter((c) => issueOf(c) === issue)
        .flatMap((c) => {
          const edited = c.edits.length ? ` (edited ${c.edits.length}×)` : '';
          const reactions = c.reactions.length ? `   [${c.reactions.join(' ')}]` : '';
          const [first = '', ...rest] = githubLines(c);
          return [`${c.author}${edited}: ${first}${reactions}`, ...rest.map((l) => `    ${l}`)];
        }),
    }));

  return {
    names,
    scene(title, what) {
      out('');
      out(`▶ ${title}`);
      out(`  ${what}`);
    },
    slackThreads,
    githubThreads,
    printFinal() {
      out('');
      out('════ What each conversation shows now ════');
      for (const thread of [...slackThreads(), ...githubThreads()]) {
        out('');
        out(`┌ ${thread.label}`);
        for (const line of thread.lines) out(`│ ${line}`);
        out('└');
      }
    },
  };
}
