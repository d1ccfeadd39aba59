import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { MarginaliaFunction } from '../../../lib/marginalia-function.js';
import { MarginaliaStack, type MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { testSite } from './fixtures/site.js';

type Statement = { Action: string | string[]; Resource: unknown };

/** The stack synthesized without bundling (props only reach the template), with `context` set. */
function synth(props: MarginaliaStackProps = {}, context: Record<string, unknown> = {}) {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [], ...context },
  });
  const stack = new MarginaliaStack(app, 'Akismet', { ...testSite, ...props });
  return { stack, template: Template.fromStack(stack) };
}

const logicalId = (stack: Stack, fn: MarginaliaFunction) =>
  stack.getLogicalId(fn.function.node.defaultChild as CfnFunction);

function environmentOf(template: Template, stack: Stack, fn: MarginaliaFunction): Record<string, string> {
  return template.toJSON().Resources[logicalId(stack, fn)].Properties.Environment.Variables;
}

/** The resources every ssm:GetParameter statement of `fn`'s role names, as JSON. */
function parameterGrants(template: Template, stack: Stack, fn: MarginaliaFunction): string {
  const roleRef = template.toJSON().Resources[logicalId(stack, fn)].Properties.Role['Fn::GetAtt'][0];
  const statements: Statement[] = Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleRef }]))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  return JSON.stringify(
    statements
      .filter((statement) => [statement.Action].flat().includes('ssm:GetParameter'))
      .map((s) => s.Resource),
  );
}

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
