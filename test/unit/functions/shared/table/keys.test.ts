import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import {
  entities,
  keys,
  likeSortStep,
  likeSortValue,
  likesOfSortValue,
  outboxDay,
  parseCommentSk,
  rootsPartition,
  threadRange,
  passkeySkPrefix,
} from '../../../../../functions/shared/table/keys.js';

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
    expect(parseCommentSk('C#01A')).not.toHaveProperty('replyId');
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
      'XC#01A',
      'DUP#C#01A',
      'URL#/p#H#01A#01B',
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

/** ULIDs, oldest first: two of one millisecond (differing in their randomness), then a later one. */
const older = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const sameMillisecond = '01ARZ3NDEKTSV5RRFFQ69G5FAV';
const newer = '01HZ0000000000000000000000';
const big = (value: NumberValue) => BigInt(value.toString());

describe('likeSortValue', () => {
  it('holds the like count times 2^96 plus the top 96 bits of the ULID', () => {
    // The ULID read as a 128-bit number, shifted right by 32 bits (worked out apart from this code).
    expect(likeSortValue(0, older).toString()).toBe('413746500043348915433631673');
    expect(likeSortValue(3, older).toString()).toBe('238098234042836361696065482681');
    expect(big(likeSortValue(3, older)) - big(likeSortValue(2, older))).toBe(big(likeSortStep));
    expect(likeSortStep.toString()).toBe((2n ** 96n).toString());
  });

  it('orders roots most liked first, then newest first, when read backwards', () => {
    const roots = [
      { like: 0, id: newer },
      { like: 2, id: older },
      { like: 0, id: older },
      { like: 2, id: sameMillisecond },
      { like: 1, id: older },
    ];

    const read = [...roots].sort((a, b) => {
      const difference = big(likeSortValue(b.like, b.id)) - big(likeSortValue(a.like, a.id));
      return difference < 0n ? -1 : difference > 0n ? 1 : 0;
    });

    expect(read).toEqual([
      { like: 2, id: sameMillisecond },
      { like: 2, id: older },
      { like: 1, id: older },
      { like: 0, id: newer },
      { like: 0, id: older },
    ]);
  });

  it('ranks an id that is not a ULID as 0, leaving the like count alone', () => {
    for (const id of [
      '123',
      '01arz3ndektsv4rrffq69g5fav',
      '81ARZ3NDEKTSV4RRFFQ69G5FAV',
      '01ARZ3NDEKTSV4RRFFQ69G5FAI',
      `x${older}`,
      `${older}Z`,
      older.slice(1),
    ]) {
      expect(likeSortValue(2, id).toString(), id).toBe((2n * 2n ** 96n).toString());
    }
  });

  it('counts a negative like count as none and a fractional one by its whole part', () => {
    expect(likeSortValue(-3, older).toString()).toBe(likeSortValue(0, older).toString());
    expect(likeSortValue(2.9, older).toString()).toBe(likeSortValue(2, older).toString());
  });

  it('stays within the 38 significant digits DynamoDB keeps for a billion likes on the last ULID', () => {
    expect(likeSortValue(1e9, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ').toString()).toHaveLength(38);
  });
});

describe('likesOfSortValue', () => {
  it('reads back the like count of a sort value, as a NumberValue or a number', () => {
    for (const like of [0, 1, 7, 1e9]) {
      const value = likeSortValue(like, older);

      expect(likesOfSortValue(value), String(like)).toBe(like);
      expect(likesOfSortValue(NumberValue.from(value.toString())), String(like)).toBe(like);
    }
    expect(likesOfSortValue(0)).toBe(0);
    expect(likesOfSortValue(123)).toBe(0);
  });

  it('reads 0 from a value that is not an integer, or is missing', () => {
    for (const value of [undefined, null, 'abc', '1.5', 1.5, {}]) {
      expect(likesOfSortValue(value), String(value)).toBe(0);
    }
  });
});

describe('account keys', () => {
  it("keys an account by its id, an address's claim by the address, an identity's link and an identity's contact", () => {
    expect(keys.account('01ACC')).toEqual({ pk: 'USER#01ACC', sk: 'USER' });
    expect(keys.accountEmail('ann@example.com')).toEqual({ pk: 'EMAIL#ann@example.com', sk: 'USER' });
    expect(keys.accountIdentity('github', '42')).toEqual({ pk: 'IDENTITY#github#42', sk: 'USER' });
    // Every account that carries one address in one partition, one item each.
    expect(keys.accountContact('ann@example.com', '01ACC')).toEqual({
      pk: 'CONTACT#ann@example.com',
      sk: 'USER#01ACC',
    });
    expect(entities.accountContact).toBe('account-contact');
  });

  it("files an author's comments beside its counter, under its key", () => {
    expect(keys.authorCount('mail:h')).toEqual({ pk: 'AUTHOR#mail:h', sk: 'COUNT' });
    expect(keys.authorFeed('mail:h', '01C')).toEqual({ pk: 'AUTHOR#mail:h', sk: 'FEED#01C' });
  });
});

describe('sign-in keys', () => {
  it("keys the attempts of an IP by time window, and an account's failures and trusted networks by its hash", () => {
    expect(keys.signInAttempts('iphash', 42)).toEqual({ pk: 'IP#iphash', sk: 'SIGNIN#42' });
    expect(keys.signInFailures('accounthash')).toEqual({ pk: 'SIGNIN#accounthash', sk: 'FAILURES' });
    expect(keys.signInNetwork('accounthash', 'nethash')).toEqual({
      pk: 'SIGNIN#accounthash',
      sk: 'NET#nethash',
    });
  });
});

describe('notification keys', () => {
  const eventId = ulid(Date.parse('2026-11-25T23:59:59.999Z'));

  it("files an event under its ULID's UTC day, and its deliveries right after it, one per recipient", () => {
    const event = keys.outboxEvent(eventId);
    const owner = keys.delivery(eventId, 'owner');
    const parent = keys.delivery(eventId, 'parent');

    expect(event).toEqual({ pk: 'OUTBOX#2026-11-25', sk: `E#${eventId}` });
    expect(outboxDay(eventId)).toBe('2026-11-25');
    expect(owner).toEqual({ pk: 'OUTBOX#2026-11-25', sk: `E#${eventId}#owner` });
    expect(parent.sk).toBe(`E#${eventId}#parent`);
    // A Query of the day, in key order, reads each event and then its deliveries.
    expect([parent.sk, event.sk, owner.sk].sort()).toEqual([event.sk, owner.sk, parent.sk]);
  });

  it("keys an address's suppressions (the whole site, or one thread) and its caps by the address's hash", () => {
    expect(keys.suppression('h', { kind: 'site' })).toEqual({ pk: 'MUTE#h', sk: 'SITE' });
    expect(keys.suppression('h', { kind: 'thread', rootId: '01ROOT' })).toEqual({
      pk: 'MUTE#h',
      sk: 'THREAD#01ROOT',
    });
    expect(keys.notifyCap('h', 'H#2026-11-25T17')).toEqual({ pk: 'MAILCAP#h', sk: 'H#2026-11-25T17' });
    expect(keys.replyConfirmation('h', 'confirmed')).toEqual({ pk: 'CONFIRM#h', sk: 'CONFIRMED' });
    expect(keys.replyConfirmation('h', 'asked')).toEqual({ pk: 'CONFIRM#h', sk: 'ASKED' });
  });

  it("keys the site's reader mail windows, a domain's by its hash, and the owner's mail hours in one partition", () => {
    expect(keys.siteMailCap('D#2026-11-25')).toEqual({ pk: 'SITEMAIL', sk: 'D#2026-11-25' });
    expect(keys.domainMailCap('d', 'H#2026-11-25T17')).toEqual({ pk: 'MAILDOMAIN#d', sk: 'H#2026-11-25T17' });
    expect(keys.ownerMailHour('2026-11-25T17')).toEqual({ pk: 'OWNERMAIL', sk: 'H#2026-11-25T17' });
    expect(keys.ownerMailPartition).toBe('OWNERMAIL');
  });

  it('keys a used captcha token by its hash alone', () => {
    expect(keys.captchaToken('h')).toEqual({ pk: 'CAPTCHA#h', sk: 'USED' });
  });

  it("keys a sign-in flow under way by its state's hash alone", () => {
    expect(keys.oauthFlow('h')).toEqual({ pk: 'OAUTH#h', sk: 'FLOW' });
  });

  it("keys account attempts by network or account, each action apart, an address's account mails by kind and day, and a used account link", () => {
    expect(keys.accountAttempts('n', 'register', 7)).toEqual({ pk: 'IP#n', sk: 'REGISTER#7' });
    expect(keys.accountAttempts('n', 'reset', 7)).toEqual({ pk: 'IP#n', sk: 'RESET#7' });
    expect(keys.accountAttempts('a', 'reauth', 7)).toEqual({ pk: 'REAUTH#a', sk: 'REAUTH#7' });
    expect(keys.accountMailCount('h', 'reset#D#2026-11-29')).toEqual({
      pk: 'ACCOUNTMAIL#h',
      sk: 'reset#D#2026-11-29',
    });
    expect(keys.usedLink('t')).toEqual({ pk: 'LINK#t', sk: 'USED' });
  });

  it("keys a network's single sign-on exchanges beside its other attempts, and a used assertion by its hash", () => {
    expect(keys.accountAttempts('n', 'sso', 7)).toEqual({ pk: 'IP#n', sk: 'SSO#7' });
    expect(keys.usedSsoAssertion('h')).toEqual({ pk: 'SSO#h', sk: 'USED' });
  });

  it("keys a current-password check of a confirmation by its account, beside the password's own checks", () => {
    expect(keys.accountAttempts('a', 'confirm', 7)).toEqual({ pk: 'REAUTH#a', sk: 'CONFIRM#7' });
  });

  it('keys the legacy administrator by its address in lower case, the account count, and an erase job by its hash', () => {
    expect(keys.admin('Ann@Example.COM')).toEqual({ pk: 'ADMIN#ann@example.com', sk: 'ADMIN' });
    expect(keys.accountsPartition).toBe('ACCOUNTS');
    expect(keys.accountCount()).toEqual({ pk: 'ACCOUNTS', sk: 'COUNT' });
    expect(keys.eraseJob('h')).toEqual({ pk: 'ERASE#h', sk: 'JOB' });
  });

  it("keys the data requests' log in one partition, and passkeys in their account's partition under one prefix", () => {
    expect(keys.dataRequestPartition).toBe('DATAREQ');
    expect(keys.dataRequest('01R')).toEqual({ pk: 'DATAREQ', sk: 'R#01R' });
    expect(passkeySkPrefix).toBe('PASSKEY#');
    expect(keys.passkey('01A', 'cred')).toEqual({ pk: 'USER#01A', sk: 'PASSKEY#cred' });
    expect(keys.passkeyChallenge('ch')).toEqual({ pk: 'WEBAUTHN#ch', sk: 'CHALLENGE' });
  });
});
