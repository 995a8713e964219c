/**
 * Linear's published GraphQL schema, as the fake Linear checks the relay's operations against
 * it. The schema is `schemas/linear.graphql`, a verbatim copy of the file Linear's SDK is
 * generated from (`packages/sdk/src/schema.graphql` in github.com/linear/linear, its commit
 * and date in `schemas/README.md`).
 *
 * A request is checked the way a GraphQL server checks it before running it: the document
 * parses, validates against the schema (every field, argument, fragment and variable), and its
 * variables coerce to their declared input types (required input fields, enum values, lists).
 * The fake's own answer is checked too (`answerProblems`): it is executed against the schema
 * with the answer as the root value, so a field the schema does not have, a null where it
 * promises a value or an enum value it does not list is the fake's mistake, not the relay's.
 */
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  executeSync,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isEnumType,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { vendoredFile } from './published.js';

export const LINEAR_SCHEMA_SOURCE =
  "Linear's GraphQL schema (src/fakes/schemas/linear.graphql, from linear/linear packages/sdk/src/schema.graphql)";

let schema: GraphQLSchema | null | undefined;

/** The schema (built once per process, about 150 ms), or null where the file is not shipped. */
export function linearSchema(): GraphQLSchema | null {
  if (schema !== undefined) return schema;
  const path = vendoredFile('linear.graphql');
  // The schema is Linear's own, valid as published: its SDL is not validated again.
  schema = path ? buildSchema(readFileSync(path, 'utf8'), { assumeValidSDL: true }) : null;
  return schema;
}

export interface CheckedOperation {
  document: DocumentNode;
  /** The operation's name (`AgentActivityCreate`), or '' when it has none. */
  name: string;
}

/** A GraphQL error as a line: its message and where in the document. */
function line(e: GraphQLError): string {
  const at = e.locations?.map((l) => `${l.line}:${l.column}`).join(', ');
  return at ? `${e.message} (at ${at})` : e.message;
}

/**
 * Check one request (its document and variables) against the schema: the GraphQL errors a
 * server answers before running it, or the parsed operation when there are none.
 */
export function checkLinearRequest(
  query: string,
  variables: Record<string, unknown>,
): { ok: true; operation: CheckedOperation } | { ok: false; errors: GraphQLError[] } {
  const s = linearSchema();
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (err) {
    if (err instanceof GraphQLError) return { ok: false, errors: [err] };
    throw err;
  }
  const operation = getOperationAST(document);
  const name = operation?.name?.value ?? '';
  if (!s) return { ok: true, operation: { document, name } };
  const invalid = validate(s, document);
  if (invalid.length > 0) return { ok: false, errors: [...invalid] };
  if (!operation)
    return { ok: false, errors: [new GraphQLError('Must provide exactly one operation.')] };
  const coerced = getVariableValues(s, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return { ok: false, errors: [...coerced.errors] };
  return { ok: true, operation: { document, name } };
}

/** The problems of the fake's own answer to a checked operation (none when it fits). */
export function answerProblems(
  operation: CheckedOperation,
  variables: Record<string, unknown>,
  data: unknown,
): string[] {
  const s = linearSchema();
  if (!s || typeof data !== 'object' || data === null) return [];
  const result = executeSync({
    schema: s,
    document: operation.document,
    rootValue: data,
    variableValues: variables,
  });
  return (result.errors ?? []).map(line);
}

/** The values of the schema's `AgentActivityType` (what an activity's `content.type` may be). */
export function activityTypes(): string[] {
  const type = linearSchema()?.getType('AgentActivityType');
  if (type && isEnumType(type)) return type.getValues().map((v) => v.name);
  return ['action', 'elicitation', 'error', 'prompt', 'response', 'thought'];
}

/** The errors as lines for a refusal record. */
export const errorLines = (errors: readonly GraphQLError[]): string[] => errors.map(line);
