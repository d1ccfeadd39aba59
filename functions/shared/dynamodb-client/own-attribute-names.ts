import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

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
 *   member (`item.toString`). An error's payload (a failed condition's old item) is the SDK's, in attribute-value
 *   form, and read by fixed names.
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

/**
 * Whether the walk goes into `value`: arrays, plain objects, and objects whose prototype a stored `__proto__`
 * set (another plain object, with no constructor of its own). An instance of a class (a Set, bytes, a
 * NumberValue, a Date) is left whole.
 */
function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (
    prototype === null ||
    prototype === Object.prototype ||
    typeof Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value !== 'function'
  );
}

/** Throws when an object or Map under `value` has a member named `__proto__` or `constructor`. */
function refuseUnsafeNames(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((element, index) => refuseUnsafeNames(element, `${path}[${index}]`));
    return;
  }
  // util-dynamodb writes a Map as a map attribute: its keys are attribute names too.
  const members =
    value instanceof Map
      ? [...(value as Map<unknown, unknown>)].map(([name, member]) => [String(name), member] as const)
      : isContainer(value)
        ? Object.entries(value)
        : [];
  for (const [name, member] of members) {
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
