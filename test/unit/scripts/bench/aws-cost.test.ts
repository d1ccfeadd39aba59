import { describe, expect, it } from 'vitest';
import {
  billedMs,
  costOf,
  meanBilledMs,
  scaleCost,
  type WorkUsage,
} from '../../../../scripts/bench/aws-cost.js';
import type { FunctionSettings } from '../../../../scripts/bench/stack-fixed-costs.js';
import { roundPrices } from './round-prices.js';

const settings = (
  memoryMb: number,
  architecture: FunctionSettings['architecture'] = 'arm64',
): FunctionSettings => ({
  logicalId: `Fn${memoryMb}`,
  memoryMb,
  architecture,
});

describe('billedMs', () => {
  it('stretches the CPU time by the share of a vCPU the memory buys and rounds up to 1 ms, when below 1769 MB', () => {
    // 10 ms of wall time, 2 of them CPU: at 512 MB the CPU part takes 1769/512 = 3.455 times as long.
    expect(billedMs({ function: 'f', wallMs: 10, cpuMs: 2 }, settings(512))).toBe(15);
  });

  it('bills the wall time alone, rounded up, at a vCPU or more, and never less than 1 ms', () => {
    expect(billedMs({ function: 'f', wallMs: 10.2, cpuMs: 5 }, settings(1769))).toBe(11);
    expect(billedMs({ function: 'f', wallMs: 10.2, cpuMs: 5 }, settings(3008))).toBe(11);
    expect(billedMs({ function: 'f', wallMs: 0.1, cpuMs: 0 }, settings(3008))).toBe(1);
  });
});

describe('costOf', () => {
  const functions = { web: settings(2048, 'arm64'), worker: settings(4096, 'x86_64') };
  const usage: WorkUsage = {
    count: 2,
    apiRequests: 6,
    invocations: [
      { function: 'web', wallMs: 99.2, cpuMs: 1 },
      { function: 'web', wallMs: 300, cpuMs: 1 },
      { function: 'worker', wallMs: 50, cpuMs: 50 },
    ],
    readUnits: 5,
    writeUnits: 2,
    mails: 3,
    logBytes: 1000,
  };

  it('bills each line of one piece of work at the prices, each invocation at its own memory and architecture', () => {
    const cost = costOf(usage, functions, roundPrices);

    // Per piece (the totals halved): 3 API requests at $2, 1.5 invocations at $0.50, ...
    expect(cost.apiGateway).toBe(6);
    expect(cost.lambdaRequests).toBe(0.75);
    // web: 100 + 300 billed ms at 2 GB and $10 a GB-s = $8; worker: 50 ms at 4 GB and $20 = $4; halved.
    expect(cost.lambdaDuration).toBeCloseTo(6, 10);
    expect(cost.dynamodbReads).toBe(2.5);
    expect(cost.dynamodbWrites).toBe(4);
    expect(cost.ses).toBe(150);
    // 500 bytes at $1024^3 a GB.
    expect(cost.logs).toBe(500);
    expect(cost.total).toBeCloseTo(6 + 0.75 + 6 + 2.5 + 4 + 150 + 500, 10);
  });

  it('scales a bill to a thousand or a million pieces of work', () => {
    const cost = scaleCost(costOf(usage, functions, roundPrices), 1000);

    expect(cost.apiGateway).toBe(6000);
    expect(cost.total).toBeCloseTo(669_250, 6);
  });

  it('gives the mean billed ms of one function', () => {
    expect(meanBilledMs(usage, 'web', functions)).toBe(200);
    expect(meanBilledMs(usage, 'none', functions)).toBe(0);
  });

  it('refuses a usage of no work, and an invocation of a function the stack does not have', () => {
    expect(() => costOf({ ...usage, count: 0 }, functions, roundPrices)).toThrow(/0 pieces of work/);
    expect(() =>
      costOf({ ...usage, invocations: [{ function: 'other', wallMs: 1, cpuMs: 0 }] }, functions, roundPrices),
    ).toThrow('no deployed settings for the function "other"');
  });
});
