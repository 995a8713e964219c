/**
 * The published shape of a run's `request_usage` (RequestUsage and the objects it holds), field
 * for field from the service's published description. Strict: a field the description does
 * not list is a difference the emulator must not have.
 */
import { z } from 'zod';

const int = z.number().int();

export const InferenceCostBreakdownUsdSchema = z.strictObject({
  input_cost_usd: z.number(),
  input_cache_read_cost_usd: z.number(),
  input_cache_write_cost_usd: z.number(),
  output_cost_usd: z.number(),
});

export const TokenCountBreakdownSchema = z.strictObject({
  input: int,
  output: int,
  input_cache_read: int,
  input_cache_write: int,
});

export const InferenceUsageDetailSchema = z.strictObject({
  token_count: TokenCountBreakdownSchema,
  cost_usd: InferenceCostBreakdownUsdSchema,
  web_search_count: int,
  web_search_cost_usd: z.number(),
});

export const ChargedUsageDetailSchema = z.strictObject({
  direct_api_inference_usage: z.record(z.string(), InferenceUsageDetailSchema).optional(),
  byok_inference_usage: z.record(z.string(), InferenceUsageDetailSchema).optional(),
  custom_endpoint_inference_usage: z.record(z.string(), InferenceUsageDetailSchema).optional(),
  platform_usage_usd: z.number(),
});

export const PublishedRequestUsageSchema = z.strictObject({
  inference_cost: z.number().optional(),
  compute_cost: z.number().optional(),
  platform_cost: z.number().optional(),
  inference_cost_usd: z.number().optional(),
  compute_cost_usd: z.number().optional(),
  platform_cost_usd: z.number().optional(),
  total_tokens: int.optional(),
  inference_cost_breakdown_usd: InferenceCostBreakdownUsdSchema.optional(),
  usage_by_category: z.record(z.string(), ChargedUsageDetailSchema).optional(),
});
