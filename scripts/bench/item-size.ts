/**
 * Item sizes as DynamoDB counts them for capacity: each attribute's name in UTF-8 plus its value, a string
 * by its UTF-8 bytes and a number by its significant digits.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { NumberValue } from '@aws-sdk/lib-dynamodb';

/** A number takes 1 byte per 2 significant digits, plus 1. */
export function numberBytes(number: string): number {
  const digits = number.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
  return Math.ceil(Math.max(digits, 1) / 2) + 1;
}

/** The size of an item as the low-level client returns it (strings, numbers, booleans and nulls only). */
export function storedItemBytes(item: Record<string, AttributeValue>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += Buffer.byteLength(name);
    if (value.S !== undefined) bytes += Buffer.byteLength(value.S);
    else if (value.N !== undefined) bytes += numberBytes(value.N);
    else if (value.BOOL !== undefined || value.NULL !== undefined) bytes += 1;
    else throw new Error(`item size: attribute ${name} is of a type this bench does not size`);
  }
  return bytes;
}

/** The size of an item as the document client writes it (strings, numbers, NumberValues, booleans only). */
export function plainItemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    bytes += Buffer.byteLength(name);
    if (typeof value === 'string') bytes += Buffer.byteLength(value);
    // A NumberValue (a number past 2^53, such as a root's like sort value) holds its digits as text.
    else if (typeof value === 'number' || value instanceof NumberValue) bytes += numberBytes(String(value));
    else if (typeof value === 'boolean') bytes += 1;
    else throw new Error(`item size: attribute ${name} is of a type this bench does not size`);
  }
  return bytes;
}
