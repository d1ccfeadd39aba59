import { z } from 'zod';
import { counterNames } from './counters.js';
import { limits } from './limits.js';

const path = z.string().min(1).max(limits.urlChars);

/** `GET /api/article?path=a,b&type=time,reaction0`. Paths are opaque: never decoded twice or normalised. */
export const readCountersQuerySchema = z.object({
  path: z.array(path).min(1).max(limits.pathsPerRequest),
  type: z
    .array(z.enum(counterNames))
    .max(counterNames.length * 2)
    .default(['time']),
});

/** `POST /api/article {path, type, action}`. */
export const updateCounterBodySchema = z.object({
  path,
  type: z.enum(counterNames).default('time'),
  action: z.enum(['inc', 'desc']).default('inc'),
});
