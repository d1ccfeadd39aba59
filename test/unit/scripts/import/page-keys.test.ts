import { describe, expect, it } from 'vitest';
import {
  createMergeLedger,
  createPageKeys,
  withTrailingSlash,
} from '../../../../scripts/import/page-keys.js';

describe('withTrailingSlash', () => {
  it('gives one trailing slash or none when asked, and keeps the root and the empty key', () => {
    expect(withTrailingSlash('/a', true)).toBe('/a/');
    expect(withTrailingSlash('/a//', true)).toBe('/a/');
    expect(withTrailingSlash('/a/', false)).toBe('/a');
    expect(withTrailingSlash('/', false)).toBe('/');
    expect(withTrailingSlash('', true)).toBe('');
  });
});

describe('createPageKeys', () => {
  const keys = ['/a', '/a/', '/solo', '/dir/', '/%E4%B8%AD', '/中/', '/'];

  it('moves every variant of a split page under the slash when the rule is slash', () => {
    const pages = createPageKeys(keys, 'slash');

    expect(pages.keyOf('/a')).toBe('/a/');
    expect(pages.keyOf('/a/')).toBe('/a/');
    expect(pages.split).toEqual(['/a', '/中']);
  });

  it('keeps each key encoded as it was when only its trailing slash changes', () => {
    const pages = createPageKeys(keys, 'slash');

    expect(pages.keyOf('/%E4%B8%AD')).toBe('/%E4%B8%AD/');
    expect(pages.keyOf('/中/')).toBe('/中/');
  });

  it('moves split pages under the bare variant when the rule is no-slash', () => {
    const pages = createPageKeys(keys, 'no-slash');

    expect(pages.keyOf('/a/')).toBe('/a');
    expect(pages.keyOf('/中/')).toBe('/中');
  });

  it('leaves a page alone when the source holds it under one variant only', () => {
    for (const rule of ['slash', 'no-slash'] as const) {
      const pages = createPageKeys(keys, rule);

      expect([pages.keyOf('/solo'), pages.keyOf('/dir/'), pages.keyOf('/')]).toEqual(['/solo', '/dir/', '/']);
      expect(pages.moves('/solo')).toBe(false);
    }
  });

  it('moves nothing but still names the split pages when the rule is none', () => {
    const pages = createPageKeys(keys, 'none');

    expect(pages.keyOf('/a')).toBe('/a');
    expect(pages.moves('/a/')).toBe(false);
    expect(pages.split).toEqual(['/a', '/中']);
  });

  it('finds no split when the forms differ only by encoding', () => {
    const pages = createPageKeys(['/%E4%B8%AD/', '/中/', ''], 'slash');

    expect(pages.split).toEqual([]);
    expect(pages.keyOf('')).toBe('');
  });
});

describe('createMergeLedger', () => {
  it('lists a moved page with what each source key held when its variants were merged', () => {
    const ledger = createMergeLedger(createPageKeys(['/a', '/a/'], 'slash'));

    ledger.record('comments', '/a', '/a/', 1);
    ledger.record('comments', '/a', '/a/', 1);
    ledger.record('comments', '/a/', '/a/', 1);
    ledger.record('pageviews', '/a', '/a/', 10);
    ledger.record('reactions', '/a/', '/a/', 0);

    expect(ledger.merges()).toEqual([
      {
        into: '/a/',
        variants: [
          { key: '/a', comments: 2, pageviews: 10, reactions: 0 },
          { key: '/a/', comments: 1, pageviews: 0, reactions: 0 },
        ],
      },
    ]);
  });

  it('lists a page when two source keys of one kind fill one key, and not when kinds differ', () => {
    const ledger = createMergeLedger(createPageKeys(['/%E4%B8%AD/', '/中/', '/b%C3%A9/', '/bé/'], 'slash'));

    ledger.record('pageviews', '/中/', '/%E4%B8%AD/', 10);
    ledger.record('pageviews', '/%E4%B8%AD/', '/%E4%B8%AD/', 5);
    // Comments decoded, pageviews raw: each kind under the key the widget asks for it, no merge.
    ledger.record('comments', '/b%C3%A9/', '/bé/', 1);
    ledger.record('pageviews', '/b%C3%A9/', '/b%C3%A9/', 3);

    expect(ledger.merges()).toEqual([
      {
        into: '/中/',
        variants: [
          { key: '/%E4%B8%AD/', comments: 0, pageviews: 5, reactions: 0 },
          { key: '/中/', comments: 0, pageviews: 10, reactions: 0 },
        ],
      },
    ]);
  });
});
