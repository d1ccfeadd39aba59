/**
 * Normalisers for the loose values of export files: dates of every storage, booleans written six
 * ways, ids as numbers or Extended JSON, paths encoded or not.
 */

/** Reads a date: epoch ms or s, digit strings, ISO with or without zone, naive `YYYY-MM-DD HH:mm:ss`
 * (read in `zone`), `{__type:'Date',iso}`, `{$date}`, `{$numberLong}`, or `Date#toString` text. */
export function parseDate(value: unknown, zone: string): { ms: number; naive: boolean } | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // Ten digits are seconds (some D1 and SQL rows), thirteen are milliseconds.
    return { ms: Math.abs(value) < 1e11 ? value * 1000 : value, naive: false };
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('iso' in record) return parseDate(record.iso, zone);
    if ('$date' in record) return parseDate(record.$date, zone);
    if ('$numberLong' in record) return parseDate(Number(record.$numberLong), zone);
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{9,}$/.test(text)) return parseDate(Number(text), zone);
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i.exec(
      text,
    );
  if (match) {
    const [, y, mo, d, h, mi, s, frac, offset] = match;
    const wall = Date.UTC(
      Number(y),
      Number(mo) - 1,
      Number(d),
      Number(h),
      Number(mi),
      Number(s ?? 0),
      Number((frac ?? '0').padEnd(3, '0').slice(0, 3)),
    );
    if (Number.isNaN(wall)) return undefined;
    if (!offset) return { ms: wallToUtc(wall, zone), naive: true };
    if (/^(Z|UTC)$/i.test(offset)) return { ms: wall, naive: false };
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
    return { ms: wall - sign * minutes * 60_000, naive: false };
  }
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : { ms: parsed, naive: false };
}

/** Milliseconds `zone` is ahead of UTC at the instant `utcMs`. */
function zoneOffset(utcMs: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(utcMs))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The instant at which clocks in `zone` showed `wallMs` (a wall time written as if UTC). */
export function wallToUtc(wallMs: number, zone: string): number {
  if (zone === 'UTC') return wallMs;
  const first = wallMs - zoneOffset(wallMs, zone);
  return wallMs - zoneOffset(first, zone);
}

/** True when `zone` is an IANA time zone this Node.js knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Booleans as exports write them: true/false, 1/0, "true"/"false", "1"/"0", "", null, absent. */
export function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['true', '1', 'yes'].includes(value.trim().toLowerCase());
  return false;
}

/** A count: numbers, numeric strings, `true` (old Waline likes) as 1; anything else 0. */
export function count(value: unknown): number {
  if (value === true) return 1;
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? Math.floor(number) : 0;
}

/** An id as text: numbers, strings, `{$oid}`; undefined for null, "" and absent. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (value && typeof value === 'object' && '$oid' in value) return idOf((value as { $oid: unknown }).$oid);
  return undefined;
}

/** A string field; null, absent and non-strings become ''. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** `decodeURI`, or the input unchanged when it is not valid percent-encoding. */
export function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The path as a browser's `location.pathname` has it: percent-encoded, as pageviews are keyed. */
export function encodedPath(path: string): string {
  return encodeURI(decodePath(path));
}

/** The path of an absolute URL (`https://x/a/?q` -> `/a/`), or the input when it is a path already. */
export function pathOf(urlOrPath: string): string {
  const trimmed = urlOrPath.trim();
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) || trimmed.startsWith('//')) {
    try {
      return new URL(trimmed, 'http://x').pathname;
    } catch {
      return trimmed;
    }
  }
  return trimmed;
}
