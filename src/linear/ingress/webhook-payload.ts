/**
 * What the relay reads of an `AgentSessionEvent` webhook (Linear's agent platform): the
 * session, its issue and team, who asked, the prompt context Linear prepared, and for
 * `prompted` the person's new message and its signal. Unknown fields are ignored; a payload
 * without what a run needs is invalid.
 */
import { z } from 'zod';

const id = z.string().min(1).max(64);

const Person = z.object({ id, name: z.string().max(200).optional() }).loose();

export const AgentSessionEventSchema = z
  .object({
    type: z.literal('AgentSessionEvent'),
    action: z.string().max(50),
    organizationId: id,
    webhookTimestamp: z.number(),
    agentSession: z
      .object({
        id,
        creator: Person.nullish(),
        issue: z
          .object({
            id,
            identifier: z.string().max(50).optional(),
            title: z.string().max(10_000).optional(),
            description: z.string().nullish(),
            url: z.string().max(2048).optional(),
            teamId: id.optional(),
            team: z
              .object({ id, key: z.string().max(20).optional() })
              .loose()
              .nullish(),
          })
          .loose()
          .nullish(),
        comment: z.object({ id, body: z.string().nullish() }).loose().nullish(),
      })
      .loose(),
    promptContext: z.string().nullish(),
    agentActivity: z
      .object({
        id: id.optional(),
        userId: id.optional(),
        user: Person.nullish(),
        signal: z.string().max(50).nullish(),
        content: z.object({ type: z.string().max(50), body: z.string().nullish() }).loose(),
      })
      .loose()
      .nullish(),
  })
  .loose();

export type AgentSessionEvent = z.infer<typeof AgentSessionEventSchema>;
