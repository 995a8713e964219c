/**
 * Request bodies pass the shared contract schemas plus the rules the contract states in
 * words (metadata limits, prompt-or-skill, one transport per MCP server). Each failure is a
 * 400 invalid_request whose detail names the problem.
 */
import { z } from 'zod';
import {
  CreateRunRequestSchema,
  METADATA_KEY_PATTERN,
  type CreateRunRequest,
} from '../../agent/schemas.js';
import { RUN_MODES } from '../../core/command/run-modes.js';
import { EmulatorProblem } from './problem.js';

const MAX_METADATA_KEYS = 20;
const MAX_METADATA_VALUE_BYTES = 256;
const SKILL_SPEC_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+:\S+$/;

function invalid(detail: string): EmulatorProblem {
  return new EmulatorProblem(400, 'invalid_request', detail);
}

export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'body'}: ${i.message}`)
    .join('; ');
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The contract's metadata rules, with a detail that names the offending key. */
export function checkMetadata(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('metadata must be an object of string values');
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_METADATA_KEYS) {
    throw invalid(`metadata has ${entries.length} keys; at most ${MAX_METADATA_KEYS} are allowed`);
  }
  for (const [key, v] of entries) {
    if (!METADATA_KEY_PATTERN.test(key)) {
      throw invalid(
        `metadata key ${JSON.stringify(key)} must be 1-64 characters of [A-Za-z0-9._-]`,
      );
    }
    if (typeof v !== 'string') throw invalid(`metadata value of ${key} must be a string`);
    if (v.includes('\0')) throw invalid(`metadata value of ${key} must not contain NUL`);
    const bytes = Buffer.byteLength(v, 'utf8');
    if (bytes > MAX_METADATA_VALUE_BYTES) {
      throw invalid(
        `metadata value of ${key} is ${bytes} bytes; at most ${MAX_METADATA_VALUE_BYTES} are allowed`,
      );
    }
  }
}

function checkConfig(req: CreateRunRequest): void {
  const config = req.config;
  if (!config) return;
  if (config.skill_spec !== undefined && !SKILL_SPEC_PATTERN.test(config.skill_spec)) {
    throw invalid(
      'config.skill_spec must look like owner/repo:skill-name or owner/repo:path/SKILL.md',
    );
  }
  for (const [name, server] of Object.entries(config.mcp_servers ?? {})) {
    const kinds = [server.url, server.command, server.warp_id].filter((k) => k !== undefined);
    if (kinds.length !== 1) {
      throw invalid(`config.mcp_servers.${name} needs exactly one of url, command or warp_id`);
    }
  }
}

export function validateCreateRequest(body: unknown): CreateRunRequest {
  const obj = requireObject(body);
  checkMetadata(obj.metadata);
  const parsed = CreateRunRequestSchema.safeParse(obj);
  if (!parsed.success) throw invalid(formatIssues(parsed.error));
  const req = parsed.data;
  const hasPrompt = typeof req.prompt === 'string' && req.prompt.trim() !== '';
  // A skill may come as `skill` or as `config.skill_spec` (the published rule).
  const hasSkill = [req.skill, req.config?.skill_spec].some(
    (s) => typeof s === 'string' && s.trim() !== '',
  );
  if (!hasPrompt && !hasSkill) {
    throw invalid('prompt is required unless a skill is given (skill or config.skill_spec)');
  }
  checkConfig(req);
  return req;
}

export const FollowupBodySchema = z.looseObject({
  message: z.string().refine((m) => m.trim() !== '', 'must not be empty'),
  mode: z.enum(RUN_MODES).optional(),
});

/** `<source>:<id>`, e.g. `github:owner/repo#12` or `linear:PAY-123` (the published form). */
export const TICKET_REF_PATTERN = /^[a-z][a-z0-9_-]*:\S+$/;

export const DispatchBodySchema = z.looseObject({
  prompt: z.string().refine((p) => p.trim() !== '', 'must not be empty'),
  title: z.string().optional(),
  ticket_ref: z
    .string()
    .regex(TICKET_REF_PATTERN, 'must be <source>:<id>, e.g. github:owner/repo#12 or linear:PAY-123')
    .optional(),
  ticket_url: z.string().optional(),
  /** Emulator extra: lets a dispatcher stamp its runs like ordinary ones. */
  metadata: z.record(z.string(), z.string()).optional(),
});

export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const obj = requireObject(body);
  checkMetadata(obj.metadata);
  const parsed = schema.safeParse(obj);
  if (!parsed.success) throw invalid(formatIssues(parsed.error));
  return parsed.data;
}
