/**
 * The stack's CloudFormation template as `cdk synth` gives it with only the site set (every default), synthesized
 * in this process: the cost section reads its functions' memory and architecture, its access-log format and
 * what it bills by the month from it (stack-fixed-costs.ts). Bundles the three functions (esbuild).
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MarginaliaStack, type MarginaliaStackProps } from '../../lib/marginalia-stack.js';
import type { NotificationVariables } from '../../lib/notification-settings.js';
import type { CfnTemplate } from './stack-fixed-costs.js';

/** The template of a MarginaliaStack with `props` (default: the deployed defaults) for a site (it costs nothing). */
export function synthesizeStackTemplate(props: MarginaliaStackProps = {}): CfnTemplate {
  const app = new App();
  const stack = new MarginaliaStack(app, 'MarginaliaBench', { siteUrl: 'https://blog.example', ...props });
  return Template.fromStack(stack).toJSON() as CfnTemplate;
}

/** Notification settings that mail through SES, as the cost section's notifier does: the stack adds SES's feedback. */
export const sesNotifications: NotificationVariables = {
  MAIL_TRANSPORT: 'ses',
  SES_IDENTITY: 'example.com',
  SENDER_EMAIL: 'comments@example.com',
  AUTHOR_EMAIL: 'owner@example.com',
};
