import { App, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { MarginaliaStack, type MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { testSite } from './fixtures/site.js';

/**
 * An app without bundling or the built-in CloudFormation validation (marginalia-stack.test.ts runs both):
 * cdk-nag reads the construct tree, not the function code.
 */
function app(): App {
  return new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
}

/** Every finding of the AwsSolutions pack left after acknowledgements, as `severity rule path`. */
function findings(scope: IConstruct): string[] {
  return new AwsSolutionsChecks()
    .validateScope(scope)
    .violations.flatMap((violation) =>
      violation.violatingResources.map(
        (resource) => `${violation.severity} ${violation.ruleName} ${resource.constructPath}`,
      ),
    );
}

/** Every acknowledgement in the tree: rule id -> the reasons given for it. */
function acknowledgements(scope: IConstruct): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const construct of scope.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        const rule = id.replace(/^annotation::/i, '');
        found.set(rule, [...(found.get(rule) ?? []), reason]);
      }
    }
  }
  return found;
}

const everyOption: MarginaliaStackProps = {
  allowedOrigins: ['https://blog.example.com'],
  siteUrl: 'https://blog.example.com',
  alarmEmail: 'owner@example.com',
  monthlyBudgetUsd: 25,
  // An upgrade step: layout 2's recent index beside the new ones.
  upgradeIndexes: 3,
};

describe('cdk-nag AwsSolutions', () => {
  it.each([
    ['the defaults (and the site, which has none)', testSite],
    ['every option set', everyOption],
  ])(
    'finds no unacknowledged error or warning in the stack with %s',
    (_case, props: MarginaliaStackProps) => {
      const root = app();
      new MarginaliaStack(root, 'Marginalia', props);

      expect(findings(root)).toEqual([]);
    },
  );

  it('acknowledges only the four judged rules, each with a written reason', () => {
    const root = app();
    new MarginaliaStack(root, 'Marginalia', everyOption);
    const acknowledged = acknowledgements(root);

    expect([...acknowledged.keys()].sort()).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-L1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SNS2',
    ]);
    for (const reasons of acknowledged.values()) {
      for (const reason of reasons) expect(reason.length).toBeGreaterThan(60);
    }
  });

  it('lets the app synthesize with the pack as a validation plugin', () => {
    const root = app();
    new MarginaliaStack(root, 'Marginalia', testSite);
    Validations.of(root).addPlugins(new AwsSolutionsChecks(root));

    expect(() => root.synth()).not.toThrow();
  });

  it('reports a finding when a construct breaks a rule', () => {
    const root = app();
    const role = new Role(new Stack(root, 'Bad'), 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    role.addToPolicy(new PolicyStatement({ actions: ['s3:*'], resources: ['*'] }));

    expect(findings(root)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^error AwsSolutions-IAM5\[Action::s3:\*\] Bad\/Role/)]),
    );
  });
});
