/** The Agent Run Service client: the factory, its types and its one error class. */
export {
  createAgentClient,
  type AgentClient,
  type AgentClientOptions,
  type AgentClientWithResponse,
} from './client.js';
export type { ApiResponse, AgentRequestInfo } from './http.js';
export type { CreateApiResponse } from './reconcile.js';
export type { OffSpecRunItem } from './run-items.js';
export {
  AgentApiError,
  codeForStatus,
  type AgentApiErrorInit,
  type ResponseHeaders,
  type ValidationIssue,
} from './errors.js';
