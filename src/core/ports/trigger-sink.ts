/** Where an ingress hands its triggers: the inbox (see service/inbox-sink.ts). */
import type { Trigger } from '../trigger.js';

/** What an ingress hands its triggers to: write to the inbox, then acknowledge. */
export interface TriggerSink {
  accept(trigger: Trigger): Promise<'accepted' | 'duplicate'>;
  /** Whether the thread already has a run (Slack: plain replies in such a thread are follow-ups). */
  threadHasRun(threadKey: string): Promise<boolean>;
}
