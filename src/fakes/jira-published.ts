/**
 * Atlassian's OpenAPI description of the Jira Cloud platform REST API (v3), trimmed to the
 * operations the relay calls, as the fake Jira checks every request against it:
 * `schemas/jira-platform.v3.trimmed.json` (its source and date in `schemas/README.md`). A
 * request the description refuses (a path or method it does not have, a query parameter it
 * does not list or of the wrong type, a body field of the wrong type or one the server sets)
 * is answered as Jira answers a bad request (400, `errorMessages`) and recorded as a refusal.
 */
import { readFileSync } from 'node:fs';
import { requestProblems, type OpenApiDocument } from './openapi-check.js';
import { vendoredFile } from './published.js';

export const JIRA_DESCRIPTION_SOURCE =
  "Atlassian's Jira Cloud platform REST v3 OpenAPI description (src/fakes/schemas/jira-platform.v3.trimmed.json)";

let doc: OpenApiDocument | null | undefined;

/** The trimmed description (read once), or null where the file is not shipped. */
export function jiraDescription(): OpenApiDocument | null {
  if (doc !== undefined) return doc;
  const path = vendoredFile('jira-platform.v3.trimmed.json');
  doc = path ? (JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument) : null;
  return doc;
}

/**
 * What the description refuses in a request, or undefined when it fits. A site's API reached
 * through Atlassian's gateway (`/ex/jira/{cloudId}/rest/api/3/…`) is the same API. Only REST v3
 * is described here: a request outside `/rest/api/3/` (the v2 `serverInfo`, which answers the
 * same on every version) is not checked.
 */
export function jiraRequestProblems(req: {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}): { request: string; problems: string[] } | undefined {
  const d = jiraDescription();
  const path = req.path.replace(/^\/ex\/jira\/[^/]+/, '');
  if (!d || !path.startsWith('/rest/api/3/')) return undefined;
  const found = requestProblems(d, { ...req, path });
  return found.problems.length === 0 ? undefined : found;
}
