import { describe, expect, it } from 'vitest';
import { initialStatus } from '../../../../functions/comment/initial-status.js';
import type { SpamCheckInput, SpamVerdict } from '../../../../functions/shared/spam/akismet.js';

const comment: SpamCheckInput = {
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0',
  url: '/post',
  nick: 'Ann',
  mail: '',
  link: '',
  text: 'hello there',
};

/** initialStatus with Akismet answering `verdict`, and the calls it got. */
function decide(
  input: Partial<SpamCheckInput> & { byAdmin?: boolean; captchaUnreachable?: boolean },
  verdict: SpamVerdict = 'ham',
) {
  const asked: SpamCheckInput[] = [];
  const status = initialStatus(
    {
      config: { COMMENT_AUDIT: false, FORBIDDEN_WORDS: ['casino'] },
      spamCheck: async (checked) => {
        asked.push(checked);
        return verdict;
      },
    },
    { ...comment, byAdmin: false, ...input },
  );
  return { status, asked };
}

describe('initialStatus and an unreachable captcha provider', () => {
  it('holds the comment as waiting, without asking Akismet, when the captcha could not be verified', async () => {
    const { status, asked } = decide({ captchaUnreachable: true });

    expect(await status).toBe('waiting');
    expect(asked).toEqual([]);
  });

  it('still marks a forbidden word spam, and approves an administrator', async () => {
    expect(await decide({ captchaUnreachable: true, text: 'cheap casino' }).status).toBe('spam');
    expect(await decide({ captchaUnreachable: true, byAdmin: true }).status).toBe('approved');
  });

  it('lets Akismet decide when the captcha was verified', async () => {
    const { status, asked } = decide({ captchaUnreachable: false });

    expect(await status).toBe('approved');
    expect(asked).toHaveLength(1);
  });
});
