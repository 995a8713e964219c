/**
 * Where a run lives, for people: a short label of its thread key and a link to the Slack
 * thread or the GitHub issue/pull request (the status message's permalink when known).
 */
import type { RunRecord } from '../core/ports/index.js';
import { decodeThreadKey } from '../core/thread-key.js';
import { safeUrl } from '../core/message/run-links.js';

export interface Place {
  label: string;
  url?: string;
}

export function placeOf(threadKey: string, githubWebUrl: string, run?: RunRecord): Place {
  const address = decodeThreadKey(threadKey);
  const permalink = safeUrl(run?.statusMessage?.url) ?? safeUrl(run?.triggerMessage?.url);
  if (!address) return { label: threadKey };
  if (address.platform === 'slack') {
    const q = new URLSearchParams({ team: address.team, channel: address.channel });
    const team = encodeURIComponent(address.team);
    const channel = encodeURIComponent(address.channel);
    // A thread opens as a thread (the channel alone is where it is, not what to look at).
    const thread = address.threadTs
      ? `https://app.slack.com/client/${team}/${channel}/thread/${channel}-${encodeURIComponent(address.threadTs)}`
      : undefined;
    return {
      label: `Slack ${address.channel}${address.threadTs ? ` › ${address.threadTs}` : ''}`,
      url: permalink ?? thread ?? `https://slack.com/app_redirect?${q.toString()}`,
    };
  }
  if (address.platform === 'linear') {
    return { label: `Linear session ${address.session}`, ...(permalink ? { url: permalink } : {}) };
  }
  if (address.platform === 'jira') {
    return { label: `Jira ${address.issueKey}`, ...(permalink ? { url: permalink } : {}) };
  }
  if (address.platform === 'teams') {
    const where = address.root ? ` › ${address.root}` : '';
    return {
      label: `Teams ${address.conversation}${where}`,
      ...(permalink ? { url: permalink } : {}),
    };
  }
  const where = `${address.owner}/${address.repo}#${address.number}`;
  return {
    label: address.reviewCommentId ? `${where} (review thread)` : where,
    url:
      permalink ??
      `${githubWebUrl}/${encodeURIComponent(address.owner)}/${encodeURIComponent(address.repo)}/issues/${address.number}`,
  };
}

/** The web address of a GitHub API base (`https://api.github.com` -> `https://github.com`). */
export function githubWebUrlOf(apiUrl: string | undefined): string {
  if (!apiUrl) return 'https://github.com';
  try {
    const url = new URL(apiUrl);
    if (url.hostname === 'api.github.com') return 'https://github.com';
    return url.origin; // GitHub Enterprise Server: https://host/api/v3 -> https://host
  } catch {
    return 'https://github.com';
  }
}

/** A place's settings scope for people: "Slack C0456", "GitHub acme/app", "Linear team T1". */
export function placeLabelOf(scope: string): string {
  const slack = /^slack:[^:]*:(.+)$/.exec(scope);
  if (slack) return `Slack ${slack[1]}`;
  if (scope.startsWith('github:')) return `GitHub ${scope.slice('github:'.length)}`;
  const linear = /^linear:[^:]*:(.+)$/.exec(scope);
  if (linear) return `Linear team ${linear[1]}`;
  return scope;
}
