/**
 * The one zod schema over the environment (load.ts drops empty values first), built from the
 * one list of variables (variables.ts): each variable's schema under its name.
 */
import { z } from 'zod';
import { VARIABLES } from './variables.js';
import type { ConfigVariable } from './variables.js';

/** `{ NAME: schema }` for every variable of the list, each with its own type. */
type ShapeOf<L extends readonly ConfigVariable[]> = { [V in L[number] as V['name']]: V['schema'] };

function shapeOf<L extends readonly ConfigVariable[]>(list: L): ShapeOf<L> {
  return Object.fromEntries(list.map((v) => [v.name, v.schema])) as ShapeOf<L>;
}

/** The one schema over the environment (after empty values are dropped). */
export const EnvSchema = z.object(shapeOf(VARIABLES));
export type Env = z.infer<typeof EnvSchema>;
