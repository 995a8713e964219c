/**
 * Plan mode (`mode: plan` on a create or a follow-up), as the published description has it:
 * the agent researches, writes a plan and waits for approval before it executes (BLOCKED).
 * The plan is a `PLAN` artifact on the run whose markdown `GET /agent/artifacts/{uid}`
 * returns: one document, its current content (a revision replaces it). A follow-up in
 * `plan` mode asks for a revised plan; a follow-up in `normal` mode (the default) carries it
 * out.
 */
import { randomUUID } from 'node:crypto';
import type { EmuRun } from './types.js';

/** The run's plan document (its artifact's ids and what `getArtifact` answers). */
export interface EmuPlan {
  artifactUid: string;
  documentUid: string;
  notebookUid: string;
  createdAt: number;
  revision: number;
  title: string;
  content: string;
}

/** What a run waiting on its plan says (the status message of its BLOCKED state). */
export const PLAN_WAITING = {
  message: 'The plan is ready for review. Approve it to carry it out, or ask for changes.',
};

function planContent(run: EmuRun, revision: number, changes: readonly string[]): string {
  const lines = [
    `# Plan: ${run.title}`,
    '',
    'I read the code involved and propose these steps:',
    '',
    '1. Find where the behaviour lives and the tests that cover it.',
    '2. Write a failing test that shows the problem.',
    '3. Make the smallest change that makes it pass.',
    '4. Update the documentation the change touches.',
    '5. Run the whole test suite.',
    '6. Open a pull request that explains the change.',
    '',
    '## Risks',
    '',
    '- Callers that rely on the old behaviour; I will search for them first.',
  ];
  if (changes.length > 0) {
    lines.push('', `## Revision ${revision}: the changes asked for`, '');
    for (const change of changes) lines.push(`- ${change.replace(/\s+/g, ' ').trim()}`);
  }
  return lines.join('\n');
}

/**
 * The execution that just ended BLOCKED with a plan: write the plan (the first one, or a
 * revision with the changes asked for) and show it as the run's `PLAN` artifact.
 */
export function writePlan(run: EmuRun, at: number, webUrl: string): void {
  const planUrl = `${webUrl}/sessions/${run.sessionId}#plan`;
  const changes = run.planChanges ?? [];
  const revision = (run.plan?.revision ?? 0) + 1;
  const title = revision === 1 ? run.title : `${run.title} (revision ${revision})`;
  const plan: EmuPlan = run.plan
    ? { ...run.plan, revision, title, content: planContent(run, revision, changes) }
    : {
        artifactUid: randomUUID(),
        documentUid: randomUUID(),
        notebookUid: randomUUID(),
        createdAt: at,
        revision,
        title,
        content: planContent(run, revision, changes),
      };
  run.plan = plan;
  const data = {
    artifact_uid: plan.artifactUid,
    document_uid: plan.documentUid,
    notebook_uid: plan.notebookUid,
    url: planUrl,
    title: plan.title,
  };
  const existing = run.artifacts.find((a) => a.artifact_type === 'PLAN');
  if (existing) existing.data = data;
  else
    run.artifacts.push({
      artifact_type: 'PLAN',
      created_at: new Date(plan.createdAt).toISOString(),
      data,
    });
}

/** `GET /agent/artifacts/{uid}` of a plan: its current markdown (the published shape). */
export function planArtifactResponse(
  run: EmuRun,
  plan: EmuPlan,
  webUrl: string,
): Record<string, unknown> {
  return {
    artifact_uid: plan.artifactUid,
    artifact_type: 'PLAN',
    created_at: new Date(plan.createdAt).toISOString(),
    data: {
      document_uid: plan.documentUid,
      notebook_uid: plan.notebookUid,
      url: `${webUrl}/sessions/${run.sessionId}#plan`,
      title: plan.title,
      content: plan.content,
      content_type: 'text/markdown',
    },
  };
}
