/**
 * `GET /agent/models` as the published description has it (ListModelsResponse, ModelInfo),
 * field for field, strict.
 */
import { z } from 'zod';

export const PublishedModelInfo = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  provider: z.enum(['OPENAI', 'ANTHROPIC', 'GOOGLE', 'UNKNOWN']),
  vision_supported: z.boolean(),
  description: z.string().optional(),
  reasoning_level: z.string().optional(),
  disable_reason: z
    .enum(['PROVIDER_OUTAGE', 'OUT_OF_REQUESTS', 'ADMIN_DISABLED', 'REQUIRES_UPGRADE'])
    .optional(),
});

export const PublishedListModelsResponse = z.strictObject({
  default_model_id: z.string(),
  models: z.array(PublishedModelInfo),
});
