/**
 * The zod every schema of the functions is written with (`import * as z from './zod.js'`): `zod/mini`,
 * whose schemas and checks are separate functions, so a bundle carries only the ones it uses.
 */
import { config } from 'zod/mini';
// By path: `locales.en()` from zod/mini would bundle every locale (~190 KiB).
import en from 'zod/v4/locales/en.js';

// zod/mini loads no locale: without one every message reads just "Invalid input". parseInput also
// passes the request's language to each parse, which wins over this default.
config(en());

export * from 'zod/mini';
