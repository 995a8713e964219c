/**
 * Links of a run for people: its session, then its artifacts (agent-api.md, "RunItem").
 * Only http(s) URLs become links; a FILE or SCREENSHOT has no URL and shows as a label.
 * Unknown artifact types with a URL show as references; without one they are skipped.
 */
import type { Artifact } from '../run.js';
import type { LinkView } from './message-model.js';

/** An http(s) URL, or undefined (no javascript:, no relative paths). */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `PR: owner/repo#7` from `https://github.com/owner/repo/pull/7` (any host). */
export function pullRequestLabel(url: string): string | undefined {
  const m = /^https?:\/\/[^/]+\/([^/]+)\/([^/]+)\/pull\/(\d+)(?:[/?#].*)?$/.exec(url);
  return m ? `PR: ${m[1]}/${m[2]}#${m[3]}` : undefined;
}

function withUrl(kind: LinkView['kind'], label: string, url: string | undefined): LinkView {
  return url === undefined ? { kind, label } : { kind, label, url };
}

export function artifactLink(artifact: Artifact): LinkView | undefined {
  const data = artifact.data ?? {};
  const url = safeUrl(data['url']);
  switch (artifact.artifact_type) {
    case 'PULL_REQUEST': {
      const branch = text(data['branch']);
      // Newer services say where the pull request stands (open, merged, closed…).
      const status = text(data['status'])?.toLowerCase();
      const base = url
        ? (pullRequestLabel(url) ?? url)
        : `Pull request${branch ? ` (${branch})` : ''}`;
      const label = status ? `${base} (${status})` : base;
      const link = withUrl('pull_request', label, url);
      return url && branch ? { ...link, branch } : link;
    }
    case 'PLAN': {
      const title = text(data['title']);
      return withUrl('plan', title ? `Plan: ${title}` : 'Plan', url);
    }
    case 'EXTERNAL_REFERENCE':
      return withUrl(
        'reference',
        text(data['title']) ?? url ?? text(data['reference_type']) ?? 'Reference',
        url,
      );
    case 'FILE':
      return withUrl('file', text(data['filename']) ?? text(data['filepath']) ?? 'File', url);
    case 'SCREENSHOT':
      return withUrl('screenshot', 'Screenshot', url);
    default:
      return url ? { kind: 'reference', label: text(data['title']) ?? url, url } : undefined;
  }
}

export function runLinks(sessionLink: string | undefined, artifacts: Artifact[]): LinkView[] {
  const links: LinkView[] = [];
  if (sessionLink) links.push({ kind: 'session', label: 'Session', url: sessionLink });
  for (const artifact of artifacts) {
    const link = artifactLink(artifact);
    if (link) links.push(link);
  }
  return links;
}

/**
 * The pull requests a run opened, with a link: what a person notified of the outcome wants
 * first (the status message holds the other links).
 */
export function pullRequestLinks(links: readonly LinkView[]): (LinkView & { url: string })[] {
  return links.filter(
    (l): l is LinkView & { url: string } => l.kind === 'pull_request' && l.url !== undefined,
  );
}
