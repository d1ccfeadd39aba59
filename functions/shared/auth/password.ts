import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/** scrypt cost: N=2^15, r=8, p=1 (about 32 MiB and tens of ms); stored with the hash so it can grow. */
const cost = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyLength = 32;

const derive = (password: string, salt: Buffer, options: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    // scrypt needs 128 * N * r bytes; allow twice that, and refuse absurd stored costs.
    const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
    scrypt(password.normalize('NFKC'), salt, keyLength, scryptOptions, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches `stored`; compares in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const sane = (value: number, max: number) => Number.isInteger(value) && value > 0 && value <= max;
  if (!sane(options.N, 2 ** 20) || !sane(options.r, 32) || !sane(options.p, 16)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), options);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
