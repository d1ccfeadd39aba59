/**
 * What DynamoDB bills for a transaction's writes, where DynamoDB Local reports less: it gives a
 * TransactWriteItems the units of one item whatever the number of items (2 for any transaction of small
 * items), where DynamoDB bills each item of a transaction 2 write units per KB begun (Amazon DynamoDB
 * developer guide, "Capacity management for transactions"). Its index units are kept as DynamoDB Local
 * reports them. Pure: items' sizes in, units out.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { numberBytes } from './item-size.js';

/** One item of a TransactWriteItems, and the bytes DynamoDB sizes it at. */
export interface TransactionItem {
  readonly kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  /** A Put's item; an Update's or a ConditionCheck's item as stored after it; 0 when not known (a Delete's). */
  readonly bytes: number;
}

/**
 * The bytes DynamoDB counts for one attribute value (developer guide, "Item sizes and formats"): a string
 * or binary by its bytes, a number by its digits, a boolean or null 1, a list or map 3 plus 1 per element
 * and the elements (a map's names too), a set its elements.
 */
export function attributeBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, number) => sum + numberBytes(number), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, bytes) => sum + bytes.length, 0);
  if (value.L !== undefined)
    return 3 + value.L.reduce((sum, element) => sum + 1 + attributeBytes(element), 0);
  if (value.M !== undefined) return 3 + itemBytes(value.M) + Object.keys(value.M).length;
  throw new Error('item size: an attribute value of no type this bench sizes');
}

/** The bytes DynamoDB counts for an item: each attribute's name and value. */
export function itemBytes(item: Readonly<Record<string, AttributeValue>>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + attributeBytes(value),
    0,
  );
}

/** The table's write units DynamoDB bills for a transaction's items: 2 per KB begun of each, at least 2. */
export function transactionTableWriteUnits(items: readonly TransactionItem[]): number {
  return items.reduce((sum, item) => sum + 2 * Math.max(1, Math.ceil(item.bytes / 1024)), 0);
}
