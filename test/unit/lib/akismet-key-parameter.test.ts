import { describe, expect, it } from 'vitest';
import type { MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { environmentOf, parameterGrants, synthUnbundled } from './fixtures/unbundled-stack.js';

/** The stack synthesized without bundling (props only reach the template), with `context` set. */
const synth = (props: MarginaliaStackProps = {}, context: Record<string, unknown> = {}) =>
  synthUnbundled('Akismet', props, context);

describe('MarginaliaStack and the Akismet key', () => {
  it('names the default parameter to the comment function only, and lets only it read that parameter', () => {
    const { stack, template } = synth();

    expect(environmentOf(template, stack, stack.commentFunction)).toMatchObject({
      AKISMET_KEY_PARAMETER: '/marginalia/akismet-key',
    });
    expect(parameterGrants(template, stack, stack.commentFunction)).toContain(
      ':parameter/marginalia/akismet-key',
    );
    expect(environmentOf(template, stack, stack.articleFunction)).not.toHaveProperty('AKISMET_KEY_PARAMETER');
    expect(parameterGrants(template, stack, stack.articleFunction)).toBe('[]');
  });

  it('puts no Akismet key into any function environment: it is read at runtime', () => {
    const { stack, template } = synth();

    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      expect(environmentOf(template, stack, fn)).not.toHaveProperty('AKISMET_KEY');
    }
  });

  it('reads the parameter named by akismetKeyParameterName when it is set', () => {
    const { stack, template } = synth({ akismetKeyParameterName: '/blog/akismet' });

    expect(environmentOf(template, stack, stack.commentFunction).AKISMET_KEY_PARAMETER).toBe('/blog/akismet');
    const grants = parameterGrants(template, stack, stack.commentFunction);
    expect(grants).toContain(':parameter/blog/akismet');
    expect(grants).not.toContain('akismet-key');
  });

  it('refuses the old akismetKey context value rather than drop it silently or publish it', () => {
    expect(() => synth({}, { akismetKey: 'abc123def456' })).toThrow(/no longer taken from context/);
  });
});
