import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  convertToAttr,
  convertToNative,
  type marshallOptions,
  type unmarshallOptions,
} from '@aws-sdk/util-dynamodb';

/**
 * util-dynamodb's `marshall` and `unmarshall` (the functions lib-dynamodb calls, with the same options), but
 * every map, an item or an `M` value, built on a null-prototype object and read by its own keys.
 *
 * util-dynamodb builds maps on `{}` with `map[key] = value`: an attribute named `__proto__` then sets the
 * map's prototype instead of becoming an attribute (lost on the way in, and on the way out an item whose
 * prototype is a stored value), and its `for...in` walk takes inherited keys too. No attribute of ours has
 * such a name today; an attribute name from stored or imported data must not be able to change an object's
 * shape. Scalars and sets go through util-dynamodb as they are.
 */
export function marshallValue(value: unknown, options: marshallOptions): unknown {
  const attribute = toAttribute(value, options);
  // As util-dynamodb's marshall: a map or list is unwrapped unless convertTopLevelContainer asks otherwise.
  if (!options.convertTopLevelContainer) {
    if (attribute.M !== undefined) return attribute.M;
    if (attribute.L !== undefined) return attribute.L;
  }
  return attribute;
}

/** The plain value of an attribute value (or, without `convertWithoutMapWrapper`, of an item). */
export function unmarshallValue(value: unknown, options: unmarshallOptions): unknown {
  const attribute = options.convertWithoutMapWrapper ? value : { M: value };
  return toNative(attribute as AttributeValue, options);
}

/** The attribute value of `value`, as util-dynamodb's convertToAttr. */
function toAttribute(value: unknown, options: marshallOptions): AttributeValue {
  if (Array.isArray(value)) {
    return { L: value.filter((element) => kept(element, options)).map((one) => toAttribute(one, options)) };
  }
  if (value instanceof Map) return { M: attributeMap(value.entries(), options) };
  if (isPlainObject(value)) return { M: attributeMap(Object.entries(value), options) };
  return convertToAttr(value as never, options);
}

/** Whether a member is written: functions never are, undefined only without removeUndefinedValues (it throws). */
function kept(value: unknown, options: marshallOptions): boolean {
  return typeof value !== 'function' && !(value === undefined && options.removeUndefinedValues);
}

function attributeMap(
  entries: Iterable<[unknown, unknown]>,
  options: marshallOptions,
): Record<string, AttributeValue> {
  const map = Object.create(null) as Record<string, AttributeValue>;
  for (const [name, member] of entries) {
    if (kept(member, options)) map[String(name)] = toAttribute(member, options);
  }
  return map;
}

/** An object literal or a null-prototype object; not a class instance, a set, a buffer or a boxed value. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The plain value of `attribute`, as util-dynamodb's convertToNative. */
function toNative(attribute: AttributeValue, options: unmarshallOptions): unknown {
  if (attribute.M !== undefined) {
    const object = Object.create(null) as Record<string, unknown>;
    for (const name of Object.keys(attribute.M)) object[name] = toNative(attribute.M[name]!, options);
    return object;
  }
  if (attribute.L !== undefined) return attribute.L.map((element) => toNative(element, options));
  return convertToNative(attribute as never, options);
}
