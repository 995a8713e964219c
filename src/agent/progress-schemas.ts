/**
 * The run's conversation (normalized steps) and timeline (setup events) as zod schemas.
 * Loose like the run's schemas: unknown fields, block types, roles and event types pass
 * through, so a newer service never makes a progress read fail.
 */
import { z } from 'zod';
import type {
  Conversation,
  ConversationBlock,
  ConversationMessage,
  ConversationStep,
  Timeline,
  TimelineEvent,
} from '../core/conversation.js';

export const ConversationBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  action_id: z.string().optional(),
  category: z.string().optional(),
  name: z.string().optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  state: z.string().optional(),
  output: z.record(z.string(), z.unknown()).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const ConversationMessageSchema = z.looseObject({
  role: z.string(),
  timestamp: z.string().nullish(),
  content: z.array(ConversationBlockSchema),
});

export const ConversationStepSchema: z.ZodType<ConversationStep> = z.looseObject({
  id: z.string(),
  description: z.string().nullish(),
  summary: z.string().nullish(),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  messages: z.array(ConversationMessageSchema),
  get steps() {
    return z.array(ConversationStepSchema);
  },
});

export const ConversationSchema = z.looseObject({
  conversation_id: z.string(),
  steps: z.array(ConversationStepSchema),
});

export const TimelineEventSchema = z.looseObject({
  event_uuid: z.string(),
  run_id: z.string(),
  event_type: z.string(),
  occurred_at: z.string(),
  execution_id: z.number().nullish(),
  payload: z.record(z.string(), z.unknown()).nullish(),
});

export const TimelineSchema = z.looseObject({
  events: z.array(TimelineEventSchema),
});

/** Compiles only when `Actual` is assignable to `Expected`. */
type Fits<Actual extends Expected, Expected> = [Actual, Expected];
export type _ProgressSchemasFitCore = [
  Fits<z.output<typeof ConversationBlockSchema>, ConversationBlock>,
  Fits<z.output<typeof ConversationMessageSchema>, ConversationMessage>,
  Fits<z.output<typeof ConversationSchema>, Conversation>,
  Fits<z.output<typeof TimelineEventSchema>, TimelineEvent>,
  Fits<z.output<typeof TimelineSchema>, Timeline>,
];
