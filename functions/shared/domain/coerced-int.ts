import * as z from './zod.js';

/**
 * A whole number from text (a query parameter or an environment variable, through `Number()`),
 * within `min` and `max`; `default` when absent.
 */
export function coercedInt(bounds: { min: number; max: number; default: number }) {
  return z._default(z.coerce.number().check(z.int(), z.gte(bounds.min), z.lte(bounds.max)), bounds.default);
}
