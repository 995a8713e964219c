/**
 * The reads a run's work comes from: `GET /agent/runs/{runId}/conversation` (404 when the run
 * has none yet, 422 when its format is not supported: the caller falls back to the state),
 * `GET /agent/runs/{runId}/timeline`, and `GET /agent/artifacts/{artifactUid}` (a plan's
 * current Markdown).
 */
import type { CallOptions } from '../core/ports/index.js';
import type { Conversation, Timeline } from '../core/conversation.js';
import type { ArtifactDetail } from '../core/run.js';
import { ArtifactDetailSchema } from './schemas.js';
import type { ApiResponse, Http } from './http.js';
import { ConversationSchema, TimelineSchema } from './progress-schemas.js';

export interface ProgressEndpoints {
  getConversation(runId: string, options?: CallOptions): Promise<ApiResponse<Conversation>>;
  getTimeline(runId: string, options?: CallOptions): Promise<ApiResponse<Timeline>>;
  getArtifact(artifactUid: string, options?: CallOptions): Promise<ApiResponse<ArtifactDetail>>;
}

export function createProgressEndpoints(http: Http): ProgressEndpoints {
  return {
    getConversation: (runId, o) =>
      http(
        {
          method: 'GET',
          route: '/agent/runs/{runId}/conversation',
          params: { runId },
          schema: ConversationSchema,
          policy: 'idempotent',
        },
        o,
      ),
    getTimeline: (runId, o) =>
      http(
        {
          method: 'GET',
          route: '/agent/runs/{runId}/timeline',
          params: { runId },
          schema: TimelineSchema,
          policy: 'idempotent',
        },
        o,
      ),
    getArtifact: (artifactUid, o) =>
      http(
        {
          method: 'GET',
          route: '/agent/artifacts/{artifactUid}',
          params: { artifactUid },
          schema: ArtifactDetailSchema,
          policy: 'idempotent',
        },
        o,
      ),
  };
}
