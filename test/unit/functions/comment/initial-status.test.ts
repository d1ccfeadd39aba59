import { describe, expect, it } from 'vitest';
import { initialStatus, type StatusInput } from '../../../../functions/comment/initial-status.js';
import type { CommentAudit } from '../../../../functions/shared/config.js';
import type { SpamCheckInput, SpamVerdict } from '../../../../functions/shared/spam/akismet.js';

const comment: StatusInput = {
  byAdmin: false,
  ip: '198.51.100.7',
  userAgent: 'Firefox',
  url: '/post',
  nick: 'Alice',
  mail: 'alice@mail.example',
  link: 'https://alice.example',
  text: 'A fine article.',
};

/** initialStatus with these settings, and the comments Akismet (when given a verdict) was asked about. */
function decide(
  input: Partial<StatusInput>,
  settings: { audit?: CommentAudit; words?: string[]; akismet?: SpamVerdict } = {},
) {
  const asked: SpamCheckInput[] = [];
  const spamCheck =
    settings.akismet === undefined
      ? undefined
      : async (checked: SpamCheckInput) => {
          asked.push(checked);
          return settings.akismet as SpamVerdict;
        };
  const result = initialStatus(
    { config: { COMMENT_AUDIT: settings.audit ?? 'off', FORBIDDEN_WORDS: settings.words ?? [] }, spamCheck },
    { ...comment, ...input },
  );
  return { result, asked };
}

describe('initialStatus', () => {
  it('approves a visitor with no rule in the way, and gives no reason', async () => {
    await expect(decide({}).result).resolves.toEqual({ status: 'approved' });
  });

  it("approves an administrator's comment whatever the rules say", async () => {
    const { result, asked } = decide(
      { byAdmin: true, text: 'casino', captchaUnreachable: true },
      { audit: 'all', words: ['casino'], akismet: 'spam' },
    );

    await expect(result).resolves.toEqual({ status: 'approved' });
    expect(asked).toEqual([]);
  });

  it.each([
    ['text', { text: 'Try the CASINO now' }],
    ['nick', { nick: 'casino king' }],
    ['link', { link: 'https://casino.example' }],
  ])('marks spam by word rule a FORBIDDEN_WORDS word in the %s, before asking Akismet', async (_, input) => {
    const { result, asked } = decide(input, { words: ['casino'], akismet: 'ham', audit: 'first' });

    await expect(result).resolves.toEqual({ status: 'spam', heldBecause: 'word_rule' });
    expect(asked).toEqual([]);
  });

  it('holds a comment whose captcha could not be checked, even from a trusted address, but a word rule still makes it spam', async () => {
    const held = decide({ captchaUnreachable: true, trusted: true }, { akismet: 'ham' });
    const worded = decide({ captchaUnreachable: true, text: 'casino' }, { words: ['casino'] });

    await expect(held.result).resolves.toEqual({ status: 'waiting', heldBecause: 'captcha_unreachable' });
    expect(held.asked).toEqual([]);
    await expect(worded.result).resolves.toEqual({ status: 'spam', heldBecause: 'word_rule' });
  });

  it('holds every comment under COMMENT_AUDIT, trusted or not, without asking Akismet', async () => {
    const { result, asked } = decide({ trusted: true }, { audit: 'all', akismet: 'ham' });

    await expect(result).resolves.toEqual({ status: 'waiting', heldBecause: 'audit' });
    expect(asked).toEqual([]);
  });

  it("holds an address's first comment under COMMENT_AUDIT=first, and approves a trusted address's", async () => {
    await expect(decide({}, { audit: 'first' }).result).resolves.toEqual({
      status: 'waiting',
      heldBecause: 'first_comment',
    });
    await expect(decide({ trusted: true }, { audit: 'first' }).result).resolves.toEqual({
      status: 'approved',
    });
  });

  it('still asks Akismet under COMMENT_AUDIT=first: spam stays spam, and a trusted address waits when it cannot judge', async () => {
    const untrustedSpam = decide({}, { audit: 'first', akismet: 'spam' });
    const untrustedUnknown = decide({}, { audit: 'first', akismet: 'unknown' });
    const trustedSpam = decide({ trusted: true }, { audit: 'first', akismet: 'spam' });
    const trustedUnknown = decide({ trusted: true }, { audit: 'first', akismet: 'unknown' });
    const trustedHam = decide({ trusted: true }, { audit: 'first', akismet: 'ham' });

    await expect(untrustedSpam.result).resolves.toEqual({ status: 'spam', heldBecause: 'akismet' });
    await expect(untrustedUnknown.result).resolves.toEqual({
      status: 'waiting',
      heldBecause: 'first_comment',
    });
    await expect(trustedSpam.result).resolves.toEqual({ status: 'spam', heldBecause: 'akismet' });
    await expect(trustedUnknown.result).resolves.toEqual({
      status: 'waiting',
      heldBecause: 'akismet_unreachable',
    });
    await expect(trustedHam.result).resolves.toEqual({ status: 'approved' });
    expect(untrustedSpam.asked).toEqual([{ ...comment }]);
  });

  it("follows Akismet's verdict without audit: spam, approved, or held when it could not judge", async () => {
    await expect(decide({}, { akismet: 'spam' }).result).resolves.toEqual({
      status: 'spam',
      heldBecause: 'akismet',
    });
    await expect(decide({}, { akismet: 'ham' }).result).resolves.toEqual({ status: 'approved' });
    await expect(decide({}, { akismet: 'unknown' }).result).resolves.toEqual({
      status: 'waiting',
      heldBecause: 'akismet_unreachable',
    });
  });
});
