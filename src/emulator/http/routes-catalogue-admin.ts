/**
 * `GET|POST /_emulator/catalogue`: read or replace the environments and models the catalogue
 * lists (what a POST leaves out stays), so another process can set up a test's names.
 */
import { z } from 'zod';
import type { CatalogueControls, CatalogueContents } from '../model/catalogue.js';
import type { Route } from './http-io.js';
import { parseBody } from './request-validation.js';

const Environment = z.strictObject({
  uid: z.string().min(1),
  name: z.string(),
  repos: z.array(z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'owner/repo')).default([]),
  description: z.string().optional(),
  lastUpdated: z.number().int().min(0).optional(),
  setupFailed: z.boolean().optional(),
});
const Model = z.strictObject({
  id: z.string().min(1),
  displayName: z.string(),
  provider: z.enum(['OPENAI', 'ANTHROPIC', 'GOOGLE', 'UNKNOWN']).default('UNKNOWN'),
  visionSupported: z.boolean().optional(),
  reasoningLevel: z.string().optional(),
  description: z.string().optional(),
  disableReason: z
    .enum(['PROVIDER_OUTAGE', 'OUT_OF_REQUESTS', 'ADMIN_DISABLED', 'REQUIRES_UPGRADE'])
    .optional(),
});
const CatalogueBody = z.strictObject({
  environments: z.array(Environment).max(1_000).optional(),
  models: z.array(Model).max(1_000).optional(),
  defaultModelId: z.string().min(1).optional(),
});

export function catalogueAdminRoutes(catalogue: CatalogueControls): Route[] {
  return [
    { method: 'GET', path: '/catalogue', handle: () => ({ status: 200, json: catalogue.get() }) },
    {
      method: 'POST',
      path: '/catalogue',
      handle(req) {
        const b = parseBody(CatalogueBody, req.body);
        const changes: Partial<CatalogueContents> = {};
        if (b.environments) changes.environments = b.environments;
        if (b.models) changes.models = b.models;
        if (b.defaultModelId) changes.defaultModelId = b.defaultModelId;
        catalogue.set(changes);
        return { status: 200, json: catalogue.get() };
      },
    },
  ];
}
