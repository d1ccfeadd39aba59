import { coercedInt } from './coerced-int.js';
import * as z from './zod.js';

/** The most authors the user wall lists (Waline's bound). */
export const wallSizeMax = 50;

/** `GET /api/user?pageSize=N`: the user wall's size, 20 by default, at most 50 (Waline's rule). */
export const userWallQuerySchema = z.object({
  pageSize: coercedInt({ min: 1, max: wallSizeMax, default: 20 }),
});
