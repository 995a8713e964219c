/**
 * The optional move of an issue when a run starts (JIRA_START_TRANSITION): the issue's
 * available transitions are asked (`GET …/transitions`) and the one whose name or target
 * status is the configured one is taken, never by a fixed id (ids differ per workflow) and
 * never one into a done status: the relay never closes an issue.
 */
import type { JiraClient, JiraTransition } from '../api/jira-client.js';

export function pickTransition(
  transitions: readonly JiraTransition[],
  wanted: string,
): JiraTransition | undefined {
  const w = wanted.trim().toLowerCase();
  const open = transitions.filter((t) => t.to?.statusCategory?.key !== 'done');
  return (
    open.find((t) => t.name.trim().toLowerCase() === w) ??
    open.find((t) => t.to?.name?.trim().toLowerCase() === w)
  );
}

/** Take the wanted transition if the issue offers it; whether it was taken. */
export async function startTransition(
  client: JiraClient,
  issueKey: string,
  wanted: string,
): Promise<boolean> {
  const chosen = pickTransition(await client.transitions(issueKey), wanted);
  if (chosen === undefined) return false;
  await client.transition(issueKey, chosen.id);
  return true;
}
