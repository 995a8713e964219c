/**
 * The published shape of `GET /agent/runs/{runId}/conversation` (ConversationResponse and the
 * schemas it names), field for field and strict about enums and required fields: an answer
 * the emulator gives must pass it.
 */
import { z } from 'zod';

const ActionCategory = z.enum([
  'command',
  'files',
  'search',
  'integration',
  'documents',
  'computer',
  'review',
  'skill',
]);
const ActionState = z.enum(['running', 'completed', 'failed', 'denied']);
const dateTime = z.iso.datetime({ offset: true });

export const PublishedTextBlock = z.object({
  type: z.literal('text'),
  message_id: z.string().optional(),
  text: z.string(),
});
export const PublishedActionBlock = z.object({
  type: z.literal('action'),
  message_id: z.string().optional(),
  id: z.string(),
  category: ActionCategory,
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export const PublishedActionResultBlock = z.object({
  type: z.literal('action_result'),
  message_id: z.string().optional(),
  action_id: z.string(),
  category: ActionCategory,
  name: z.string(),
  state: ActionState,
  output: z.record(z.string(), z.unknown()),
});
export const PublishedEventBlock = z.object({
  type: z.literal('event'),
  message_id: z.string().optional(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
});

export const PublishedContentBlock = z.discriminatedUnion('type', [
  PublishedTextBlock,
  PublishedActionBlock,
  PublishedActionResultBlock,
  PublishedEventBlock,
]);

export const PublishedConversationMessage = z.object({
  message_ids: z.array(z.string()).optional(),
  request_id: z.string().optional(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  timestamp: dateTime.optional(),
  content: z.array(PublishedContentBlock),
});

export interface PublishedStep {
  id: string;
  description?: string | undefined;
  summary?: string | undefined;
  started_at?: string | undefined;
  completed_at?: string | undefined;
  messages: z.infer<typeof PublishedConversationMessage>[];
  steps: PublishedStep[];
}

export const PublishedConversationStep: z.ZodType<PublishedStep> = z.object({
  id: z.string(),
  description: z.string().optional(),
  summary: z.string().optional(),
  started_at: dateTime.optional(),
  completed_at: dateTime.optional(),
  messages: z.array(PublishedConversationMessage),
  get steps() {
    return z.array(PublishedConversationStep);
  },
});

export const PublishedConversationResponse = z.object({
  conversation_id: z.string(),
  steps: z.array(PublishedConversationStep),
});
