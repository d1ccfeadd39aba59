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

/** A bcrypt hash as Waline stores them (phpass: `$2a$08$…`; `$2b$` and `$2y$` from other bcrypts). */
const bcryptHash = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/** The costliest imported bcrypt hash checked: Waline's are 8; a stored cost of 2^31 rounds would hang. */
const maxBcryptCost = 14;

/**
 * The password as Waline's phpass fed it to bcrypt: each UTF-16 code unit modulo 128, one byte each. For an
 * ASCII password that is the password itself.
 */
const phpassBytes = (password: string) =>
  String.fromCharCode(...Array.from({ length: password.length }, (_, i) => password.charCodeAt(i) % 128));

/**
 * True when `password` matches an imported bcrypt hash: as Waline's phpass hashed it, or, for a non-ASCII
 * password, as a standard bcrypt (UTF-8) would have.
 */
async function verifyBcrypt(password: string, stored: string): Promise<boolean> {
  const cost = Number(bcryptHash.exec(stored)?.[1]);
  if (!(cost >= 4 && cost <= maxBcryptCost)) return false;
  // bcryptjs knows `$2a$` and `$2b$`; `$2y$` (PHP's) is the same algorithm under another name.
  const hash = stored.replace(/^\$2y\$/, '$2b$');
  // Loaded only for an imported hash: the comment function's bundle and cold start carry it no further.
  const { default: bcrypt } = await import('bcryptjs');
  if (await bcrypt.compare(phpassBytes(password), hash)) return true;
  return phpassBytes(password) !== password && bcrypt.compare(password, hash);
}

/** Whether `stored` is a hash imported from Waline (bcrypt), which a successful sign-in replaces by scrypt. */
export function isImportedHash(stored: string): boolean {
  return /^\$2[aby]\$/.test(stored);
}

/**
 * True when `password` matches `stored` (scrypt, or a bcrypt hash imported from Waline); compares in
 * constant time; false for any malformed hash.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (isImportedHash(stored)) return verifyBcrypt(password, stored);
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const sane = (value: number, max: number) => Number.isInteger(value) && value > 0 && value <= max;
  if (!sane(options.N, 2 ** 20) || !sane(options.r, 32) || !sane(options.p, 16)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), options);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
