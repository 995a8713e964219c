/**
 * A request checked against an OpenAPI 3 description the fakes vendor (`schemas/`): its path
 * and method must be an operation of the description, its query parameters among the
 * operation's (the required ones present, each of its schema's type and enum), and its JSON
 * body valid for the operation's request schema.
 *
 * The schema check covers the keywords the vendored descriptions use, and no more: `$ref`,
 * `type` with `nullable`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
 * `allOf`, `maxLength`, `uniqueItems`, and `readOnly` (a read-only property in a request is
 * refused: the server sets it). `format`, `default`, `example`, `description` and `xml` are
 * annotations here. `KNOWN_KEYWORDS` lists them, and the test of each description fails when
 * it uses a keyword outside the list, so nothing it says is silently skipped.
 */

export type Schema = { [k: string]: unknown };

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
}

export const KNOWN_KEYWORDS = [
  '$ref',
  'type',
  'nullable',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'allOf',
  'maxLength',
  'uniqueItems',
  'readOnly',
  'format',
  'default',
  'example',
  'description',
  'xml',
] as const;

/** Every keyword the description's schemas use that this check does not know (none, or it lies). */
export function unknownKeywords(doc: OpenApiDocument): string[] {
  const found = new Set<string>();
  const walk = (s: unknown): void => {
    if (typeof s !== 'object' || s === null) return;
    if (Array.isArray(s)) return s.forEach(walk);
    for (const [k, v] of Object.entries(s as Schema)) {
      if (!(KNOWN_KEYWORDS as readonly string[]).includes(k)) found.add(k);
      if (k === 'properties') Object.values(v as Schema).forEach(walk);
      else if (k === 'items' || k === 'additionalProperties' || k === 'allOf') walk(v);
    }
  };
  Object.values(doc.components?.schemas ?? {}).forEach(walk);
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item) as Operation[]) {
      if (typeof op !== 'object' || op === null || Array.isArray(op)) continue;
      for (const p of op.parameters ?? []) walk(p.schema);
      walk(op.requestBody?.content?.['application/json']?.schema);
    }
  return [...found].sort();
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The problems of `value` against `schema` (one line each, with where). */
export function schemaProblems(
  doc: OpenApiDocument,
  schema: Schema,
  value: unknown,
  at = 'body',
): string[] {
  if (typeof schema.$ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : doc.components?.schemas?.[name];
    if (!target) return [`${at}: the description has no ${schema.$ref}`];
    return schemaProblems(doc, target, value, at);
  }
  const problems: string[] = [];
  for (const part of (schema.allOf as Schema[] | undefined) ?? [])
    problems.push(...schemaProblems(doc, part, value, at));
  if (value === null) return schema.nullable === true || !schema.type ? problems : [`${at}: null`];
  const type = schema.type as string | undefined;
  const actual = typeOf(value);
  if (type && actual !== type && !(type === 'number' && actual === 'integer'))
    return [...problems, `${at}: a ${actual}, where the description has ${type}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  if (typeof schema.maxLength === 'number' && typeof value === 'string')
    if (value.length > schema.maxLength) problems.push(`${at}: longer than ${schema.maxLength}`);
  if (Array.isArray(value)) {
    if (
      schema.uniqueItems === true &&
      new Set(value.map((v) => JSON.stringify(v))).size !== value.length
    )
      problems.push(`${at}: items repeat`);
    const items = schema.items as Schema | undefined;
    if (items)
      value.forEach((v, i) => problems.push(...schemaProblems(doc, items, v, `${at}[${i}]`)));
  }
  if (actual === 'object' && (schema.properties || schema.additionalProperties !== undefined)) {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required as string[] | undefined) ?? [])
      if (!(key in obj)) problems.push(`${at}.${key}: required`);
    for (const [key, v] of Object.entries(obj)) {
      const prop = props[key];
      if (prop) {
        const resolved = resolve(doc, prop);
        if (resolved.readOnly === true) problems.push(`${at}.${key}: read-only, set by the server`);
        else problems.push(...schemaProblems(doc, prop, v, `${at}.${key}`));
      } else if (schema.additionalProperties === false) {
        problems.push(`${at}.${key}: not in the description`);
      } else if (typeof schema.additionalProperties === 'object') {
        problems.push(
          ...schemaProblems(doc, schema.additionalProperties as Schema, v, `${at}.${key}`),
        );
      }
    }
  }
  return problems;
}

function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
  return (name === undefined ? undefined : doc.components?.schemas?.[name]) ?? schema;
}

/** A query value as the parameter's schema types it. */
function queryProblem(p: Parameter, raw: string): string | undefined {
  const type = p.schema?.type;
  if (type === 'integer' && !/^-?\d+$/.test(raw)) return `?${p.name}: ${raw} is not an integer`;
  if (type === 'boolean' && raw !== 'true' && raw !== 'false')
    return `?${p.name}: ${raw} is not a boolean`;
  const values = p.schema?.enum;
  if (Array.isArray(values) && !values.includes(raw))
    return `?${p.name}: ${raw} is not one of ${values.join(', ')}`;
  return undefined;
}

const templateRegex = (template: string): RegExp =>
  new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/**
 * The operation a request is, by method and path (`{template}` and its method), or undefined
 * when the description has none.
 */
export function findOperation(
  doc: OpenApiDocument,
  method: string,
  path: string,
): { template: string; operation: Operation } | undefined {
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!templateRegex(template).test(path)) continue;
    const operation = item[method.toLowerCase()] as Operation | undefined;
    if (operation) return { template, operation };
  }
  return undefined;
}

/** What the description refuses in a request (an empty list when it fits). */
export function requestProblems(
  doc: OpenApiDocument,
  req: { method: string; path: string; query: URLSearchParams; body: unknown },
): { request: string; problems: string[] } {
  const found = findOperation(doc, req.method, req.path);
  if (!found)
    return {
      request: `${req.method} ${req.path}`,
      problems: ['not an operation of the description'],
    };
  const { template, operation } = found;
  const problems: string[] = [];
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  for (const key of new Set(req.query.keys())) {
    const p = query.find((q) => q.name === key);
    if (!p) problems.push(`?${key}: not a parameter of the operation`);
    else
      for (const raw of req.query.getAll(key)) {
        const wrong = queryProblem(p, raw);
        if (wrong) problems.push(wrong);
      }
  }
  for (const p of query)
    if (p.required && !req.query.has(p.name)) problems.push(`?${p.name}: required`);
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  if (req.body !== undefined && !bodySchema) problems.push('body: the operation takes none');
  if (req.body === undefined && bodySchema && operation.requestBody?.required)
    problems.push('body: required');
  if (req.body !== undefined && bodySchema)
    problems.push(...schemaProblems(doc, bodySchema, req.body));
  return { request: `${req.method} ${template}`, problems };
}
