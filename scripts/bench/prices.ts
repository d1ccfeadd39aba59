/**
 * The AWS list prices the bench's cost section (aws-cost.ts, stack-fixed-costs.ts) bills with: one region,
 * one date, the pricing page each comes from. They are not fetched: the build host has no internet, so
 * these are the list prices as known when this table was written, not re-checked on that day against the
 * pages. Check them before quoting a figure, and change them here (with the date) when AWS does.
 *
 * Free tiers (Lambda's 1 million requests and 400,000 GB-seconds a month, CloudWatch's 10 alarm metrics
 * and 5 GB of logs, DynamoDB's 25 GB of storage, ...) are left out: they are the account's, shared with
 * whatever else runs in it.
 */

/** The region, the date and the sources of {@link prices}. */
export const priceSource = {
  region: 'us-east-1',
  /** The day the table was written; the prices are those known then, not re-checked that day. */
  writtenOn: '2026-11-28',
  checked: 'list prices as known when written (2025 pricing pages), not re-checked online on that day',
  pages: [
    'AWS Lambda Pricing',
    'Amazon DynamoDB Pricing for On-Demand Capacity',
    'Amazon API Gateway Pricing (HTTP APIs)',
    'Amazon CloudWatch Pricing (Alarms, Logs)',
    'AWS Secrets Manager Pricing',
    'AWS Systems Manager Pricing (Parameter Store)',
    'AWS Key Management Service Pricing',
    'Amazon SQS Pricing',
    'Amazon SES Pricing',
  ],
} as const;

/** A price table: US dollars per unit, by service. */
export interface Prices {
  readonly lambda: {
    readonly perRequest: number;
    readonly perGbSecond: { readonly arm64: number; readonly x86_64: number };
  };
  readonly dynamodb: {
    readonly perReadUnit: number;
    readonly perWriteUnit: number;
    readonly perGbMonth: number;
    readonly pitrPerGbMonth: number;
  };
  readonly apiGateway: { readonly httpPerRequest: number };
  readonly cloudWatch: { readonly perAlarmMetricMonth: number; readonly logsPerGbIngested: number };
  readonly secretsManager: { readonly perSecretMonth: number };
  readonly ssm: { readonly advancedParameterMonth: number };
  readonly kms: { readonly perKeyMonth: number };
  readonly sqs: { readonly perRequest: number };
  readonly ses: { readonly perMail: number };
}

/** US dollars, us-east-1 list prices (see {@link priceSource}). */
export const prices: Prices = {
  lambda: {
    /** Per request (invocation), either architecture: $0.20 per million. */
    perRequest: 0.2 / 1e6,
    /** Per GB-second of billed duration, first pricing tier (6 billion GB-s a month for arm64). */
    perGbSecond: { arm64: 0.000_013_333_4, x86_64: 0.000_016_666_7 },
  },
  dynamodb: {
    /** On-demand, Standard table class: $0.125 per million read request units (since November 2024). */
    perReadUnit: 0.125 / 1e6,
    /** On-demand, Standard table class: $0.625 per million write request units (since November 2024). */
    perWriteUnit: 0.625 / 1e6,
    /** Storage, Standard table class, per GB-month (after the first 25 GB). */
    perGbMonth: 0.25,
    /** Continuous backups (point-in-time recovery), per GB-month of table data. */
    pitrPerGbMonth: 0.2,
  },
  apiGateway: {
    /** HTTP API, first 300 million requests a month: $1.00 per million (each metered in 512 KB steps). */
    httpPerRequest: 1 / 1e6,
  },
  cloudWatch: {
    /** A standard-resolution alarm, per alarm metric a month: a metric-math alarm pays for each metric it reads. */
    perAlarmMetricMonth: 0.1,
    /** Logs ingested (Standard log class, first tier of vended Lambda logs), per GB. */
    logsPerGbIngested: 0.5,
  },
  secretsManager: {
    /** Per secret a month. */
    perSecretMonth: 0.4,
  },
  ssm: {
    /** A Standard parameter costs nothing to store; an Advanced one $0.05 a month. */
    advancedParameterMonth: 0.05,
  },
  kms: {
    /** A customer managed key a month (each of its first two rotations adds $1 a month). */
    perKeyMonth: 1,
  },
  sqs: {
    /** Standard queue, per request (after the first million a month): $0.40 per million. */
    perRequest: 0.4 / 1e6,
  },
  ses: {
    /** Outbound mail: $0.10 per 1,000 messages. */
    perMail: 0.1 / 1000,
  },
};
