/**
 * Readers of environment variables for the configuration (config.ts), written without zod: the functions read
 * their configuration at every cold start, where building and running a zod schema of forty settings cost about
 * 4 ms of CPU on Lambda's Node.js (docs/benchmarks.md). Each reader takes the raw value (undefined when unset)
 * and returns the setting, or throws a {@link RuleError} saying the rule the value broke.
 */

/** A value that breaks its variable's rule; the message is the rule. */
export class RuleError extends Error {}

/** Reads one variable's raw value into a setting. */
export type Reader<T> = (raw: string | undefined) => T;

const broken = (rule: string): never => {
  throw new RuleError(rule);
};

/** Blank is unset, as in a `.env` file that lists a variable with no value. */
const blankIsUnset = (raw: string | undefined) => (raw === undefined || raw.trim() === '' ? undefined : raw);

/** Text of `min` to `max` characters; required unless `optional`. */
export function text(bounds: { min?: number; max?: number }): Reader<string>;
export function text(bounds: { min?: number; max?: number; optional: true }): Reader<string | undefined>;
export function text({
  min = 1,
  max = Infinity,
  optional = false,
}: {
  min?: number;
  max?: number;
  optional?: boolean;
}) {
  return (raw: string | undefined) => {
    const value = blankIsUnset(raw);
    if (value === undefined) return optional ? undefined : broken('must be set');
    if (value.length < min) return broken(`must be at least ${min} characters`);
    if (value.length > max) return broken(`must be at most ${max} characters`);
    return value;
  };
}

/** An optional http(s) URL, trimmed. */
export const optionalUrl: Reader<string | undefined> = (raw) => {
  const value = blankIsUnset(raw);
  if (value === undefined) return undefined;
  const url = value.trim();
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)
    ? url
    : broken('must be an http or https URL');
};

/** An http(s) URL, trimmed; `fallback` when unset. */
export function urlWithDefault(fallback: string): Reader<string> {
  return (raw) => optionalUrl(raw) ?? fallback;
}

/** A number, fractions allowed, within `min` and `max`; `default` when unset. */
export function decimal(bounds: { min: number; max: number; default: number }): Reader<number> {
  return (raw) => {
    const value = blankIsUnset(raw);
    if (value === undefined) return bounds.default;
    // Decimal notation only: Number() would also read `0x1`, `1e0` or `Infinity`.
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value.trim()) ? Number(value) : NaN;
    return number >= bounds.min && number <= bounds.max
      ? number
      : broken(`must be a number from ${bounds.min} to ${bounds.max}`);
  };
}

/** A whole number within `min` and `max`; `default` when unset. */
export function wholeNumber(bounds: { min: number; max: number; default: number }): Reader<number> {
  return (raw) => {
    const value = blankIsUnset(raw);
    if (value === undefined) return bounds.default;
    const number = Number(value);
    return Number.isInteger(number) && number >= bounds.min && number <= bounds.max
      ? number
      : broken(`must be a whole number from ${bounds.min} to ${bounds.max}`);
  };
}

/** A Waline-style switch: on when set to anything but blank, `0` or `false` (any case). */
export const flag: Reader<boolean> = (raw) =>
  blankIsUnset(raw) !== undefined && !/^(0|false)$/i.test(raw!.trim());

/** A Waline `MARKDOWN_*` switch: on unless `0` or `false` (any case), so on when unset or blank. */
export const onUnlessOff: Reader<boolean> = (raw) => raw === undefined || !/^(0|false)$/i.test(raw.trim());

/** An optional setting that `false` (any case) also turns off. */
export const unlessFalse: Reader<string | undefined> = (raw) => {
  const value = blankIsUnset(raw);
  return value === undefined || /^false$/i.test(value.trim()) ? undefined : value;
};

/** A comma-separated variable as its trimmed, non-empty items; `fallback` when it is unset. */
export const commaSeparated = (raw: string | undefined, fallback = ''): string[] =>
  (raw ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A comma-separated list of at most `maxItems` items of at most `maxLength` characters each. */
export function list(maxItems: number, maxLength: number): Reader<string[]> {
  return (raw) => {
    const items = commaSeparated(raw);
    if (items.length > maxItems) return broken(`must list at most ${maxItems} items`);
    const long = items.find((item) => item.length > maxLength);
    return long === undefined ? items : broken(`each item must be at most ${maxLength} characters`);
  };
}

/** Origins, comma-separated: `*` or http(s) URLs, each kept as its origin; `*` when unset. */
export const originList: Reader<string[]> = (raw) => {
  const items = commaSeparated(blankIsUnset(raw), '*');
  if (items.length === 0) return broken('must name at least one origin, or *');
  return items.map((item) => {
    if (item === '*') return item;
    const url = URL.canParse(item) ? new URL(item) : undefined;
    return url && /^https?:$/.test(url.protocol)
      ? url.origin
      : broken(`${item} is not * or an http or https URL`);
  });
};
