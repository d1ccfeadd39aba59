import { describe, expect, it } from 'vitest';
import { projection } from '../../../../../functions/shared/table/projection.js';

describe('projection', () => {
  it('projects each name through a placeholder, in order', () => {
    expect(projection(['url', 'status', 'like'])).toStrictEqual({
      ProjectionExpression: '#p0, #p1, #p2',
      ExpressionAttributeNames: { '#p0': 'url', '#p1': 'status', '#p2': 'like' },
    });
  });

  it('names an attribute once when it is asked for twice, as DynamoDB requires', () => {
    expect(projection(['pk', 'sk', 'comments', 'pk'])).toStrictEqual({
      ProjectionExpression: '#p0, #p1, #p2',
      ExpressionAttributeNames: { '#p0': 'pk', '#p1': 'sk', '#p2': 'comments' },
    });
  });

  it('merges the names of the request’s other expressions', () => {
    expect(projection(['sk'], { '#roots': 'rootsPk' })).toStrictEqual({
      ProjectionExpression: '#p0',
      ExpressionAttributeNames: { '#p0': 'sk', '#roots': 'rootsPk' },
    });
  });

  it('projects nothing (every attribute) without names, and sends no empty name map', () => {
    expect(projection([], { '#pk': 'pk' })).toStrictEqual({ ExpressionAttributeNames: { '#pk': 'pk' } });
    expect(projection([])).toStrictEqual({});
  });
});
