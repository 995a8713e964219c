/**
 * A plan as people are shown it: its Markdown read through the service's artifact endpoint
 * (`GET /agent/artifacts/{uid}`), bounded, with its title and link. A service without the
 * read, or a read that fails, still gives the plan's title and link.
 */
import type { Artifact } from '../core/run.js';
import type { AgentService, Logger } from '../core/ports/index.js';
import { MAX_PLAN_CHARS } from '../core/message/review-text.js';
import { clip } from '../core/text.js';
import { planFields } from './plan-review.js';

export interface PlanContent {
  title?: string;
  markdown?: string;
  url?: string;
}

export async function readPlan(
  agent: Pick<AgentService, 'getArtifact'>,
  artifact: Artifact,
  log: Logger,
): Promise<PlanContent> {
  const { uid, title, url } = planFields(artifact);
  const known: PlanContent = { ...(title ? { title } : {}), ...(url ? { url } : {}) };
  if (uid === undefined || agent.getArtifact === undefined) return known;
  try {
    const detail = await agent.getArtifact(uid);
    const markdown = detail.data.content?.trim();
    const current = detail.data.title?.trim();
    return {
      ...known,
      ...(current ? { title: current } : {}),
      ...(markdown ? { markdown: clip(markdown, MAX_PLAN_CHARS) } : {}),
    };
  } catch (err) {
    log.warn({ err, artifactUid: uid }, 'could not read the plan; showing its link only');
    return known;
  }
}
