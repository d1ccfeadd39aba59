import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { NumberValue } from '@aws-sdk/lib-dynamodb';

/** Attribute names a plain JavaScript object cannot hold as data: util-dynamodb would corrupt or refuse them. */
const unsafeNames = new Set(['__proto__', 'constructor']);

/**
 * Adds the middleware that keeps every attribute an own member, on the client's stack (the document client shares
 * it). util-dynamodb builds maps on `{}` with `map[name] = value`: an attribute named `__proto__` sets the map's
 * prototype instead of becoming an attribute (on the way in the map is written garbled, on the way out a stored
 * map becomes the prototype of the item), and one named `constructor` makes it refuse the map.
 *
 * - A write naming either is refused before anything is sent, with the path of the name. No item of ours has
 *   such a name; an imported or stored name must not change an object's shape.
 * - Every answer comes out on null-prototype objects, read by own keys: a stored attribute named `__proto__` (only
 *   another writer could store one) is dropped, never a prototype, and no absent attribute reads as an inherited
 *   member (`item.toString`).
 *
 * It runs in the initialize step, outside lib-dynamodb's marshalling (serialize step) and unmarshalling.
 */
export function addOwnAttributeNames(stack: DynamoDBClient['middlewareStack']): void {
  stack.add(
    (next) => async (args) => {
      refuseUnsafeNames(args.input, 'input');
      const result = await next(args);
      return { ...result, output: ownCopy(result.output) as typeof result.output };
    },
    { step: 'initialize', name: 'ownAttributeNames', override: true },
  );
}

/** Whether the walk goes into `value`: arrays and objects, but not sets, bytes or exact numbers. */
function isContainer(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Set) &&
    !(value instanceof NumberValue) &&
    !ArrayBuffer.isView(value)
  );
}

/** Throws when an object under `value` has a member named `__proto__` or `constructor`. */
function refuseUnsafeNames(value: unknown, path: string): void {
  if (!isContainer(value)) return;
  if (Array.isArray(value)) {
    value.forEach((element, index) => refuseUnsafeNames(element, `${path}[${index}]`));
    return;
  }
  for (const [name, member] of Object.entries(value)) {
    if (unsafeNames.has(name)) {
      throw new TypeError(
        `DynamoDB attribute "${name}" at ${path} is refused: a JavaScript object cannot hold it`,
      );
    }
    refuseUnsafeNames(member, `${path}.${name}`);
  }
}

/** `value` with every object rebuilt on a null prototype from its own enumerable members. */
function ownCopy(value: unknown): unknown {
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) return value.map(ownCopy);
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, member] of Object.entries(value)) copy[name] = ownCopy(member);
  return copy;
}
