import { describe, expect, it } from 'vitest';
import type { MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { environmentOf, synthUnbundled } from './fixtures/unbundled-stack.js';

const synth = (props: MarginaliaStackProps = {}) => synthUnbundled('Registration', props, {});

describe('MarginaliaStack and REGISTRATION', () => {
  it('keeps registration closed by default: the comment function is given no REGISTRATION', () => {
    const { stack, template } = synth();

    expect(environmentOf(template, stack, stack.commentFunction)).not.toHaveProperty('REGISTRATION');
  });

  it('passes an open registration and the mail transport the comment function checks it against', () => {
    const { stack, template } = synth({
      registration: 'approval',
      notifications: { SES_IDENTITY: 'blog.example', SENDER_EMAIL: 'comments@blog.example' },
    });

    expect(environmentOf(template, stack, stack.commentFunction)).toMatchObject({
      REGISTRATION: 'approval',
      MAIL_TRANSPORT: 'ses',
    });
  });

  it('refuses to synthesize an open registration without mail, which must carry the confirmation link', () => {
    expect(() => synth({ registration: 'open' })).toThrow(/registration: open needs mail/);
  });

  it("passes the erase's choice for answered comments (ERASE_WITH_REPLIES), and nothing by default", () => {
    const plain = synth();
    const anonymising = synth({ eraseWithReplies: 'anonymise' });

    expect(environmentOf(plain.template, plain.stack, plain.stack.commentFunction)).not.toHaveProperty(
      'ERASE_WITH_REPLIES',
    );
    expect(
      environmentOf(anonymising.template, anonymising.stack, anonymising.stack.commentFunction),
    ).toMatchObject({ ERASE_WITH_REPLIES: 'anonymise' });
  });
});
