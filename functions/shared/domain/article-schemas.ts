import { counterNames } from './counters.js';
import { limits } from './limits.js';
import { pagePathSchema } from './page-path.js';
import * as z from './zod.js';

/** `GET /api/article?path=a,b&type=time,reaction0`. Paths are opaque: never decoded twice or normalised. */
export const readCountersQuerySchema = z.object({
  path: z.array(pagePathSchema).check(z.minLength(1), z.maxLength(limits.pathsPerRequest)),
  type: z.pipe(
    z._default(z.array(z.enum(counterNames)).check(z.maxLength(counterNames.length * 2)), ['time']),
    // A type asked for twice is answered once: DynamoDB refuses overlapping projections.
    z.transform((types) => [...new Set(types)]),
  ),
});

/** `POST /api/article {path, type, action}`. */
export const updateCounterBodySchema = z.object({
  path: pagePathSchema,
  type: z._default(z.enum(counterNames), 'time'),
  action: z._default(z.enum(['inc', 'desc']), 'inc'),
});
