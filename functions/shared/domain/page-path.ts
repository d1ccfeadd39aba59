import { limits } from './limits.js';
import * as z from './zod.js';

/** Every url/path is part of a DynamoDB partition key, which stops at 2048 bytes: bound the bytes too. */
const withinKeyBytes = (path: string) => Buffer.byteLength(path) <= limits.urlBytes;
const keyBytesRule = `must be at most ${limits.urlBytes} bytes (UTF-8)`;

/** A page path as the widget sends it: opaque, non-empty, bounded in characters and bytes. */
export const pagePathSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(limits.urlChars), z.refine(withinKeyBytes, keyBytesRule));

/** A url of a count request: may be empty (an empty url alone asks for the site total). */
export const countUrlSchema = z
  .string()
  .check(z.maxLength(limits.urlChars), z.refine(withinKeyBytes, keyBytesRule));
