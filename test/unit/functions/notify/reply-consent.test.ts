import { describe, expect, it } from 'vitest';
import { awaitingReasons, replyMailDecision } from '../../../../functions/notify/reply-consent.js';

const asked = { eventId: '01FIRST', at: 1 };

describe('replyMailDecision', () => {
  it('sends to anyone with REPLY_MAIL=all, and to nobody with off', () => {
    expect(replyMailDecision('all', undefined, '01E')).toEqual({ kind: 'send' });
    expect(replyMailDecision('off', { confirmed: true }, '01E')).toEqual({
      kind: 'skip',
      reason: 'REPLY_MAIL=off',
    });
  });

  it('sends to a confirmed address with REPLY_MAIL=confirmed, whatever was asked before', () => {
    expect(replyMailDecision('confirmed', { confirmed: true, asked }, '01E')).toEqual({ kind: 'send' });
  });

  it('asks an address never asked, replacing its first notice by the confirmation mail', () => {
    expect(replyMailDecision('confirmed', { confirmed: false }, '01E')).toEqual({ kind: 'ask', first: true });
  });

  it('asks again only for the event it asked for (a failed send tried again), and skips every other', () => {
    expect(replyMailDecision('confirmed', { confirmed: false, asked }, '01FIRST')).toEqual({
      kind: 'ask',
      first: false,
    });
    expect(replyMailDecision('confirmed', { confirmed: false, asked }, '01LATER')).toEqual({
      kind: 'skip',
      reason: awaitingReasons.already,
    });
  });
});
