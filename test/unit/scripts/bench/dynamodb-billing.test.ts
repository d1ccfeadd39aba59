import { describe, expect, it } from 'vitest';
import {
  attributeBytes,
  itemBytes,
  transactionTableWriteUnits,
} from '../../../../scripts/bench/dynamodb-billing.js';

describe('itemBytes', () => {
  it("sizes each attribute's name and value, lists and maps with their overhead", () => {
    expect(attributeBytes({ S: 'héllo' })).toBe(6);
    // 1 byte per 2 significant digits, plus 1.
    expect(attributeBytes({ N: '12345' })).toBe(4);
    expect(attributeBytes({ BOOL: true })).toBe(1);
    // 3 + (1 + 1) + (1 + 2).
    expect(attributeBytes({ L: [{ S: 'a' }, { S: 'bc' }] })).toBe(8);
    // 3 + names (1) + values (1) + 1 per element.
    expect(attributeBytes({ M: { k: { S: 'v' } } })).toBe(6);
    expect(itemBytes({ pk: { S: 'A#1' }, n: { N: '7' } })).toBe(2 + 3 + 1 + 2);
  });
});

describe('transactionTableWriteUnits', () => {
  it('bills each item of a transaction 2 units per KB begun, at least 2, where DynamoDB Local bills the transaction once', () => {
    expect(
      transactionTableWriteUnits([
        { kind: 'Put', bytes: 300 },
        { kind: 'Put', bytes: 1024 },
        { kind: 'Update', bytes: 1025 },
        { kind: 'Delete', bytes: 0 },
        { kind: 'ConditionCheck', bytes: 40 },
      ]),
    ).toBe(2 + 2 + 4 + 2 + 2);
  });
});
