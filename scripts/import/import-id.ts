import { createHash } from 'node:crypto';
import { decodeTime, encodeTime, isValid } from 'ulid';

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The largest time a ULID can carry (2^48 - 1 ms). */
const maxTime = 2 ** 48 - 1;

/**
 * The id of an imported comment: a ULID whose time part is its insertion time and whose random part
 * is a hash of (source format, source id). Lists stay in time order and a rerun derives the same id.
 */
export function importedCommentId(source: string, sourceId: string, insertedAt: number): string {
  const time = Math.min(maxTime, Math.max(0, Math.floor(insertedAt)));
  const digest = createHash('sha256').update(`${source}\u0000${sourceId}`).digest();
  // 80 bits of the digest make the 16 base-32 characters of the random part.
  let bits = BigInt(`0x${digest.subarray(0, 10).toString('hex')}`);
  let random = '';
  for (let i = 0; i < 16; i++) {
    random = crockford[Number(bits & 31n)] + random;
    bits >>= 5n;
  }
  return encodeTime(time, 10) + random;
}

/**
 * The id of an imported account: a ULID whose time part is its creation time and whose random part is a
 * hash of (source format, `Users`, source id), so it never meets a comment's id and a rerun derives it again.
 */
export function importedAccountId(source: string, sourceId: string, createdAt: number): string {
  return importedCommentId(`${source}\u0000Users`, sourceId, createdAt);
}

/** True when `id` is a ULID whose time part is exactly `insertedAt`: an id Marginalia itself gave. */
export function isOwnId(id: string, insertedAt: number): boolean {
  return id.length === 26 && isValid(id) && id === id.toUpperCase() && decodeTime(id) === insertedAt;
}
