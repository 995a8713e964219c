/**
 * `issues.opened`, `pull_request.opened` (a body that mentions the bot) and `issues.labeled`
 * (the trigger label, or `factory:<alias>`) -> candidate Triggers.
 *
 * A label run's words are a fresh run's prompt (`Trigger.freshRun`), so the title can never
 * read as a command: `<title>\n\n<body>`, or `factory <alias> <title>\n\n<body>` for a
 * factory label.
 */
import {
  actorOf,
  authoredCandidate,
  baseOf,
  candidate,
  isSelfOrBot,
  issueContext,
  type InterpretOptions,
  type Interpretation,
  type Permission,
} from './trigger-candidate.js';
import { IssuesEvent, PullRequestEvent } from './webhook-payloads.js';

const FACTORY_LABEL = /^factory:([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/i;

function hasTriggerLabel(labels: { name: string }[], opts: InterpretOptions): boolean {
  return labels.some(
    (l) => l.name.toLowerCase() === opts.triggerLabel.toLowerCase() || FACTORY_LABEL.test(l.name),
  );
}

export function fromIssues(raw: unknown, opts: InterpretOptions): Interpretation {
  const parsed = IssuesEvent.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', problem: 'issues payload' };
  const { issue, sender, action, label } = parsed.data;
  const base = baseOf(parsed.data, issue.number);
  const context = {
    issue: issueContext(base, issue, issue.pull_request != null, opts.maxBodyChars),
    permalink: issue.html_url,
  };
  const message = {
    id: { kind: 'issue-body', number: issue.number } as const,
    url: issue.html_url,
  };
  if (action === 'opened') {
    if (isSelfOrBot(issue.user, opts)) return { kind: 'ignore', reason: 'bot_or_self' };
    // The label event that follows starts the run; the body's mention must not start a second.
    if (hasTriggerLabel(issue.labels, opts))
      return { kind: 'ignore', reason: 'label_event_follows' };
    return authoredCandidate(base, opts, issue, 'issue_opened', context, message);
  }
  if (action !== 'labeled' || label == null) return { kind: 'ignore', reason: `issues.${action}` };
  const factoryAlias = FACTORY_LABEL.exec(label.name)?.[1];
  if (factoryAlias === undefined && label.name.toLowerCase() !== opts.triggerLabel.toLowerCase()) {
    return { kind: 'ignore', reason: 'other_label' };
  }
  if (isSelfOrBot(sender, opts)) return { kind: 'ignore', reason: 'bot_or_self' };
  const ownIssue = sender.login.toLowerCase() === issue.user.login.toLowerCase();
  const permission: Permission = ownIssue
    ? { kind: 'association', value: issue.author_association }
    : { kind: 'label-access' };
  // The title and body are a prompt, never a command keyword (an issue titled "Cancel …").
  const prompt = issue.body.trim() === '' ? issue.title : `${issue.title}\n\n${issue.body}`;
  const words = factoryAlias === undefined ? prompt : `factory ${factoryAlias} ${prompt}`;
  return candidate(
    base,
    opts,
    permission,
    {
      kind: 'label',
      actor: actorOf(sender, ownIssue ? issue.author_association : undefined),
      text: words,
      addressed: true,
      ...(factoryAlias === undefined ? { freshRun: true } : {}),
      context,
      ...(factoryAlias === undefined ? {} : { factoryAlias }),
    },
    message,
  );
}

export function fromPullRequest(raw: unknown, opts: InterpretOptions): Interpretation {
  const parsed = PullRequestEvent.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', problem: 'pull_request payload' };
  const { pull_request: pr, action } = parsed.data;
  if (action !== 'opened') return { kind: 'ignore', reason: `pull_request.${action}` };
  if (isSelfOrBot(pr.user, opts)) return { kind: 'ignore', reason: 'bot_or_self' };
  const base = baseOf(parsed.data, pr.number);
  return authoredCandidate(
    base,
    opts,
    pr,
    'pull_request_opened',
    { issue: issueContext(base, pr, true, opts.maxBodyChars), permalink: pr.html_url },
    { id: { kind: 'issue-body', number: pr.number }, url: pr.html_url },
  );
}
