/**
 * Every published schema under one name, and `checkPublished`, which says how a value
 * differs from the published shape (an empty list when it conforms).
 */
import type { z } from 'zod';
import { AmbientAgentConfig } from './agent-config.js';
import { ArtifactResponse } from './artifact.js';
import { RunAgentRequest, RunAgentResponse } from './create-run.js';
import { ErrorBody } from './error.js';
import {
  DispatchFactoryRunRequest,
  DispatchFactoryRunResponse,
  Factory,
  ListFactoriesQuery,
  ListFactoriesResponse,
} from './factories.js';
import { ListRunsQuery, ListRunsResponse } from './list-runs.js';
import { CancelRunResponse, RunFollowupRequest } from './run-actions.js';
import { ArtifactItem, RunItem, RunStatusMessage } from './run-item.js';
import { PublishedConversationResponse } from './conversation.js';
import { PublishedListEnvironmentsResponse } from './environments.js';
import { PublishedFollowupResponse } from './followup.js';
import { InterruptAcceptedSchema } from './interrupt.js';
import { PublishedListModelsResponse } from './models.js';
import { PublishedTimelineResponse } from './timeline.js';

export const PUBLISHED = {
  AmbientAgentConfig,
  ArtifactItem,
  ArtifactResponse,
  CancelRunResponse,
  ConversationResponse: PublishedConversationResponse,
  DispatchFactoryRunRequest,
  DispatchFactoryRunResponse,
  Error: ErrorBody,
  Factory,
  ListFactoriesQuery,
  InterruptAccepted: InterruptAcceptedSchema,
  ListEnvironmentsResponse: PublishedListEnvironmentsResponse,
  ListFactoriesResponse,
  ListModelsResponse: PublishedListModelsResponse,
  ListRunsQuery,
  ListRunsResponse,
  RunAgentRequest,
  RunAgentResponse,
  RunFollowupRequest,
  RunFollowupResponse: PublishedFollowupResponse,
  RunItem,
  RunStatusMessage,
  TimelineResponse: PublishedTimelineResponse,
} satisfies Record<string, z.ZodType>;

export type PublishedName = keyof typeof PUBLISHED;

/**
 * How `value` differs from the published schema (named, or given), one readable line per
 * issue: `runs.0.finished_at: Invalid input...`. Empty when it conforms.
 */
export function checkPublished(schema: PublishedName | z.ZodType, value: unknown): string[] {
  const s: z.ZodType = typeof schema === 'string' ? PUBLISHED[schema] : schema;
  const result = s.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((i) => {
    const keys = 'keys' in i && Array.isArray(i.keys) ? ` ${i.keys.join(', ')}` : '';
    return `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}${keys}`;
  });
}
