/**
 * The ports the platform-neutral middle (core/, runs/) talks to, one per file. `main.ts`
 * wires the real adapters: the agent client (agent/), the SQLite/PostgreSQL store (store/),
 * and the Slack and GitHub notifiers. Tests wire the same real adapters against local fakes.
 */
export * from './agent-service.js';
export * from './catalogue.js';
export * from './clock.js';
export * from './delivery-error.js';
export * from './installations.js';
export * from './logger.js';
export * from './metrics.js';
export * from './notifier.js';
export * from './random.js';
export * from './repo-access.js';
export * from './service-error.js';
export * from './store.js';
export * from './trigger-sink.js';
export type { ListRunsQuery, RunItem } from '../run.js';
export type { OptionKey } from '../message/message-model.js';
export type { Platform } from '../trigger.js';
export * from './operator-queries.js';
export * from './console-sessions.js';
export * from './reaction-ids.js';
export * from './linear-sessions.js';
export * from './platform-capabilities.js';
