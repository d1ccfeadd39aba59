import { describe, expect, it } from 'vitest';
import {
  keys,
  parseCommentSk,
  rootsPartition,
  threadRange,
} from '../../../../../functions/shared/storage/keys.js';

/** Whether DynamoDB's `sk BETWEEN from AND to` holds: it compares strings by their UTF-8 bytes. */
const between = (sk: string, range: { from: string; to: string }) =>
  Buffer.compare(Buffer.from(range.from), Buffer.from(sk)) <= 0 &&
  Buffer.compare(Buffer.from(sk), Buffer.from(range.to)) <= 0;

describe('threadRange', () => {
  it('spans a root and its visible replies, and nothing of the root whose id extends its own', () => {
    const range = threadRange('12', 'visible');

    expect(range).toEqual({ from: 'C#12', to: 'C#12#\uffff' });
    for (const sk of ['C#12', 'C#12#0', 'C#12#01ARZ3NDEKTSV4RRFFQ69G5FAV', 'C#12#zzzz']) {
      expect(between(sk, range), sk).toBe(true);
    }
    for (const sk of ['C#123', 'C#123#01A', 'C#1', 'C#13', 'C#2', 'H#12#01A', 'DUP#12', 'PAGE']) {
      expect(between(sk, range), sk).toBe(false);
    }
  });

  it('spans the held replies of a root only, never the root itself nor another thread', () => {
    const range = threadRange('12', 'held');

    expect(range).toEqual({ from: 'H#12#', to: 'H#12#\uffff' });
    for (const sk of ['H#12#0', 'H#12#01A', 'H#12#zzzz']) expect(between(sk, range), sk).toBe(true);
    for (const sk of ['H#123#01A', 'H#1#01A', 'C#12', 'C#12#01A', 'H#12']) {
      expect(between(sk, range), sk).toBe(false);
    }
  });
});

describe('parseCommentSk', () => {
  it('reads a root and a reply, visible or held, back from their sort keys', () => {
    expect(parseCommentSk('C#01A')).toEqual({ rootId: '01A' });
    expect(parseCommentSk('C#01A#01B')).toEqual({ rootId: '01A', replyId: '01B' });
    expect(parseCommentSk('H#01A#01B')).toEqual({ rootId: '01A', replyId: '01B' });
  });

  it('returns undefined for a key that is not a comment', () => {
    for (const sk of [
      'PAGE',
      'SITE',
      'DUP#abc',
      'VOTE#like#h',
      'C#',
      'C#01A#',
      'C#a b',
      'C#01A#01B#01C',
      'X#01A',
    ]) {
      expect(parseCommentSk(sk), sk).toBeUndefined();
    }
  });

  it('reads back what keys.comment wrote, for every place a comment can be', () => {
    const places = [
      { url: '/p', id: '01A', status: 'waiting' as const },
      { url: '/p', id: '01B', rid: '01A', status: 'approved' as const },
      { url: '/p', id: '01C', rid: '01A', status: 'spam' as const },
    ];

    expect(places.map((place) => parseCommentSk(keys.comment(place).sk))).toEqual([
      { rootId: '01A' },
      { rootId: '01A', replyId: '01B' },
      { rootId: '01A', replyId: '01C' },
    ]);
  });
});

describe('keys.comment', () => {
  it('keeps a root at C#<id> whatever its status', () => {
    for (const status of ['approved', 'waiting', 'spam'] as const) {
      expect(keys.comment({ url: '/p', id: '01A', status })).toEqual({ pk: 'URL#/p', sk: 'C#01A' });
    }
  });

  it('puts an approved reply under its root, and a waiting or spam one under H#', () => {
    const reply = { url: '/p', id: '01B', rid: '01A' };

    expect(keys.comment({ ...reply, status: 'approved' })).toEqual({ pk: 'URL#/p', sk: 'C#01A#01B' });
    expect(keys.comment({ ...reply, status: 'waiting' })).toEqual({ pk: 'URL#/p', sk: 'H#01A#01B' });
    expect(keys.comment({ ...reply, status: 'spam' })).toEqual({ pk: 'URL#/p', sk: 'H#01A#01B' });
  });
});

describe('rootsPartition', () => {
  it('names the article, the status and whether the roots are pinned', () => {
    expect(rootsPartition('/p', 'approved', true)).toBe('R#approved#pinned#/p');
    expect(rootsPartition('/p', 'spam', false)).toBe('R#spam#flow#/p');
  });
});
