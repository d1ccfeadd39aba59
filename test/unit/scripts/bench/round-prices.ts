import type { Prices } from '../../../../scripts/bench/prices.js';

/** Round prices, so that every line of a bill can be worked out by hand. */
export const roundPrices: Prices = {
  lambda: { perRequest: 0.5, perGbSecond: { arm64: 10, x86_64: 20 } },
  dynamodb: { perReadUnit: 1, perWriteUnit: 4, perGbMonth: 0, pitrPerGbMonth: 0 },
  apiGateway: { httpPerRequest: 2 },
  cloudWatch: { perAlarmMetricMonth: 0.1, logsPerGbIngested: 1024 ** 3 },
  secretsManager: { perSecretMonth: 0.4 },
  ssm: { advancedParameterMonth: 0.05 },
  kms: { perKeyMonth: 1 },
  sqs: { perRequest: 0 },
  ses: { perMail: 100 },
};
