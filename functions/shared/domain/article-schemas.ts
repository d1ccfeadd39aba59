import * as z from 'zod';
import { counterNames } from './counters.js';
import { limits } from './limits.js';
import { pagePathSchema } from './page-path.js';

/** `GET /api/article?path=a,b&type=time,reaction0`. Paths are opaque: never decoded twice or normalised. */
export const readCountersQuerySchema = z.object({
  path: z.array(pagePathSchema).min(1).max(limits.pathsPerRequest),
  type: z
    .array(z.enum(counterNames))
    .max(counterNames.length * 2)
    .default(['time'])
    // A type asked for twice is answered once: DynamoDB refuses overlapping projections.
    .transform((types) => [...new Set(types)]),
});

/** `POST /api/article {path, type, action}`. */
export const updateCounterBodySchema = z.object({
  path: pagePathSchema,
  type: z.enum(counterNames).default('time'),
  action: z.enum(['inc', 'desc']).default('inc'),
});
