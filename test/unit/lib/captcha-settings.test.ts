import { describe, expect, it } from 'vitest';
import type { MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { environmentOf, parameterGrants, synthUnbundled } from './fixtures/unbundled-stack.js';

/** The stack synthesized without bundling (props only reach the template), with `context` set. */
const synth = (props: MarginaliaStackProps = {}, context: Record<string, unknown> = {}) =>
  synthUnbundled('Captcha', props, context);

describe('MarginaliaStack and the captcha', () => {
  it('sets no captcha by default: no secret parameter named or readable, no key, no verify URL', () => {
    const { stack, template } = synth();

    const environment = environmentOf(template, stack, stack.commentFunction);
    for (const variable of [
      'TURNSTILE_SECRET_PARAMETER',
      'RECAPTCHA_V3_SECRET_PARAMETER',
      'TURNSTILE_KEY',
      'RECAPTCHA_V3_KEY',
      'RECAPTCHA_V3_MIN_SCORE',
      'TURNSTILE_VERIFY_URL',
      'RECAPTCHA_VERIFY_URL',
    ]) {
      expect(environment).not.toHaveProperty(variable);
    }
    expect(parameterGrants(template, stack, stack.commentFunction)).not.toMatch(/turnstile|recaptcha/);
  });

  it('names the secret parameters to the comment function only, lets only it read them, and passes the keys', () => {
    const { stack, template } = synth({
      turnstileSecretParameterName: '/blog/turnstile-secret',
      recaptchaV3SecretParameterName: '/blog/recaptcha-secret',
      turnstileKey: '0x4AAAAAAAtest',
      recaptchaV3Key: '6Lc-test_key',
      recaptchaV3MinScore: 0.7,
    });

    expect(environmentOf(template, stack, stack.commentFunction)).toMatchObject({
      TURNSTILE_SECRET_PARAMETER: '/blog/turnstile-secret',
      RECAPTCHA_V3_SECRET_PARAMETER: '/blog/recaptcha-secret',
      TURNSTILE_KEY: '0x4AAAAAAAtest',
      RECAPTCHA_V3_KEY: '6Lc-test_key',
      RECAPTCHA_V3_MIN_SCORE: '0.7',
    });
    const grants = parameterGrants(template, stack, stack.commentFunction);
    expect(grants).toContain(':parameter/blog/turnstile-secret');
    expect(grants).toContain(':parameter/blog/recaptcha-secret');
    expect(environmentOf(template, stack, stack.articleFunction)).not.toHaveProperty(
      'TURNSTILE_SECRET_PARAMETER',
    );
    expect(parameterGrants(template, stack, stack.articleFunction)).toBe('[]');
  });

  it('refuses a captcha secret given as context rather than publish it in the template', () => {
    expect(() => synth({}, { turnstileSecret: 'x' })).toThrow(/not taken from context/);
    expect(() => synth({}, { RECAPTCHA_V3_SECRET: 'x' })).toThrow(/not taken from context/);
  });

  it('refuses a score outside 0 to 1 and a site key the function would refuse, at synth', () => {
    expect(() => synth({ recaptchaV3MinScore: 1.5 })).toThrow(
      'recaptchaV3MinScore: 1.5 is not a score from 0 to 1',
    );
    expect(() => synth({ turnstileKey: 'key"><script>' })).toThrow(/turnstileKey: must be letters, digits/);
  });

  it('stops synth when the sign-in page would not send the token of the captcha in force', () => {
    const turnstile = '/blog/turnstile-secret';
    const recaptcha = '/blog/recaptcha-secret';
    expect(() => synth({ turnstileSecretParameterName: turnstile })).toThrow(
      /^turnstileSecretParameterName needs turnstileKey \(-c turnstileKey=\.\.\.\)/,
    );
    // Turnstile's secret is read first: reCAPTCHA's key is no use to it.
    expect(() =>
      synth({
        turnstileSecretParameterName: turnstile,
        recaptchaV3SecretParameterName: recaptcha,
        recaptchaV3Key: '6Lc-test_key',
      }),
    ).toThrow(/^turnstileSecretParameterName needs turnstileKey/);
    expect(() => synth({ recaptchaV3SecretParameterName: recaptcha })).toThrow(
      /^recaptchaV3SecretParameterName needs recaptchaV3Key \(-c recaptchaV3Key=\.\.\.\)/,
    );
    expect(() =>
      synth({ recaptchaV3SecretParameterName: recaptcha, turnstileKey: '0x4AAAAAAAtest' }),
    ).toThrow(/^recaptchaV3SecretParameterName needs recaptchaV3Key/);
    expect(() =>
      synth({
        recaptchaV3SecretParameterName: recaptcha,
        recaptchaV3Key: '6Lc-test_key',
        turnstileKey: '0x4AAAAAAAtest',
      }),
    ).toThrow(/^turnstileKey without turnstileSecretParameterName: the captcha is reCAPTCHA v3/);
    expect(() =>
      synth({ recaptchaV3SecretParameterName: recaptcha, recaptchaV3Key: '6Lc-test_key' }),
    ).not.toThrow();
    expect(() =>
      synth({
        turnstileSecretParameterName: turnstile,
        recaptchaV3SecretParameterName: recaptcha,
        turnstileKey: '0x4AAAAAAAtest',
      }),
    ).not.toThrow();
  });
});
