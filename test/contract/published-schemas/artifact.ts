/**
 * `GET /agent/artifacts/{artifactUid}` (operation `getArtifact`, in the OpenAPI file and the
 * newest SDK's `client.agent.getArtifact`): `ArtifactResponse`, one of a plan (its current
 * Markdown inline), a screenshot or a file (a signed download URL), field for field.
 */
import { z } from 'zod';
import { DateTime, Uri } from './common.js';

const response = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({
    artifact_uid: z.string(),
    artifact_type: z.literal(type),
    created_at: DateTime,
    data,
  });

export const PlanArtifactResponse = response(
  'PLAN',
  z.strictObject({
    document_uid: z.string(),
    notebook_uid: z.string(),
    url: Uri.optional(),
    title: z.string().optional(),
    content: z.string(),
    content_type: z.string(),
  }),
);

export const ScreenshotArtifactResponse = response(
  'SCREENSHOT',
  z.strictObject({
    download_url: Uri,
    expires_at: DateTime,
    content_type: z.string(),
    description: z.string().optional(),
  }),
);

export const FileArtifactResponse = response(
  'FILE',
  z.looseObject({ download_url: Uri, expires_at: DateTime, content_type: z.string() }),
);

export const ArtifactResponse = z.discriminatedUnion('artifact_type', [
  PlanArtifactResponse,
  ScreenshotArtifactResponse,
  FileArtifactResponse,
]);
