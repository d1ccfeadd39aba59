/**
 * Lambda refuses a result over 6 MB (6,291,456 bytes) and API Gateway then answers 500. Every answer
 * that holds comments is built within this many bytes of the serialised Lambda result, which leaves
 * room for the envelope, the headers and the rest of the proxy result.
 */
export const answerBudgetBytes = 4 * 1024 * 1024;

/**
 * The most bytes one UTF-16 unit of a string can take in a Lambda result: JSON writes a control
 * character as `\u0001` (6 bytes), and the proxy result, whose body is itself a JSON string, escapes
 * that backslash once more (7). A CJK character takes 3 bytes, a quote 4, a surrogate pair 4 for 2 units.
 */
const bytesPerUnit = 7;

/** An upper bound of what `value` adds to a Lambda result, from string lengths alone (no serialising). */
export function quickBound(value: unknown): number {
  if (typeof value === 'string') return bytesPerUnit * value.length + 8;
  if (value === null || typeof value !== 'object') return 32;
  let bytes = 8;
  for (const [key, inner] of Object.entries(value)) bytes += quickBound(key) + quickBound(inner);
  return bytes;
}

/** Exactly what `value` adds to a Lambda result: its JSON, plus one byte per `"` or `\` escaped again. */
export function resultBytes(value: unknown): number {
  const json = JSON.stringify(value) ?? '';
  let escapedAgain = 0;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) escapedAgain++;
  }
  return Buffer.byteLength(json) + escapedAgain;
}

/** A running count of an answer's bytes against its budget. */
export interface AnswerBudget {
  /** Counts `value` in and returns true if it fits what is left; false (and counts nothing) if not. */
  take(value: unknown): boolean;
  /** Counts `value` in, exactly, whether it fits or not: for the small parts an answer always carries. */
  force(value: unknown): void;
}

/**
 * A budget of `limit` bytes. Most values are measured by their quick bound alone; only when that no
 * longer fits are they serialised and measured exactly, so a small answer costs no second serialisation.
 */
export function createAnswerBudget(limit: number = answerBudgetBytes): AnswerBudget {
  let used = 0;
  return {
    take(value) {
      const bound = quickBound(value);
      if (used + bound <= limit) {
        used += bound;
        return true;
      }
      const exact = resultBytes(value);
      if (used + exact > limit) return false;
      used += exact;
      return true;
    },
    force(value) {
      used += resultBytes(value);
    },
  };
}
