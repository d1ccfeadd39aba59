import { describe, expect, it } from 'vitest';
import type { WorkUsage } from '../../../../scripts/bench/aws-cost.js';
import { type CostMeasurement, pageLoadCalls } from '../../../../scripts/bench/cost-run.js';
import { summarizeCost } from '../../../../scripts/bench/cost-summary.js';
import { dollars, formatAwsCost, formatAwsCostHeadline } from '../../../../scripts/bench/report.js';
import type { FunctionSettings, StackFixedCosts } from '../../../../scripts/bench/stack-fixed-costs.js';
import { roundPrices } from './round-prices.js';

const deployed = (logicalId: string): FunctionSettings => ({
  logicalId,
  memoryMb: 1024,
  architecture: 'arm64',
});
const functions = {
  comment: deployed('CommentFunctionA'),
  article: deployed('ArticleFunctionB'),
  notify: deployed('NotifierFunctionC'),
};

/** One piece of work: `requests` API requests, each invocation of 99.5 ms (billed 100) without CPU. */
const usage = (
  names: readonly ('comment' | 'article' | 'notify')[],
  more: Partial<WorkUsage> = {},
): WorkUsage => ({
  count: 1,
  apiRequests: names.filter((name) => name !== 'notify').length,
  invocations: names.map((name) => ({ function: name, wallMs: 99.5, cpuMs: 0 })),
  readUnits: 0,
  writeUnits: 0,
  mails: 0,
  logBytes: 0,
  ...more,
});

const measurement: CostMeasurement = {
  pageLoad: usage(['comment', 'comment', 'article'], { readUnits: 3, writeUnits: 1 }),
  rootComment: usage(['comment', 'notify'], { writeUnits: 10, mails: 1 }),
  reply: usage(['comment', 'notify'], { writeUnits: 10, mails: 2 }),
  sweep: usage(['notify'], { readUnits: 1 }),
};

const fixed: StackFixedCosts = {
  items: [
    {
      item: 'CloudWatch alarms (per alarm metric)',
      resourceType: 'AWS::CloudWatch::Alarm',
      resources: 11,
      billedUnits: 24,
      monthlyUsd: 2.4,
    },
  ],
  monthlyUsd: 2.4,
  schedules: [
    { logicalId: 'Sweep', expression: 'rate(1 hour)', target: 'NotifierFunctionC', invocationsPerMonth: 730 },
  ],
  usageOnly: ['AWS::Lambda::Function'],
  unpriced: [],
};

describe('summarizeCost', () => {
  it('bills a million page loads and a thousand comments, and adds the sweep runs to the fixed monthly cost', () => {
    const summary = summarizeCost(measurement, functions, fixed, roundPrices);

    const [pageLoad, root, reply] = summary.work;
    // A page load: 3 requests at $2, 3 invocations at $0.50, 3 x 0.1 s x 1 GB at $10, 3 reads at $1, 1 write at $4.
    expect(pageLoad?.cost.total).toBeCloseTo((6 + 1.5 + 3 + 3 + 4) * 1e6, 4);
    expect(pageLoad?.billedMs).toEqual({ comment: 100, article: 100 });
    // A reply: 1 request, 2 invocations, 2 x 0.1 s, 10 writes, 2 mails at $100; per thousand.
    expect(reply?.cost.total).toBeCloseTo((2 + 1 + 2 + 40 + 200) * 1000, 6);
    expect(root?.cost.ses).toBeCloseTo(100 * 1000, 6);
    // The sweep: 730 runs of one invocation ($0.50 + $1 of duration) and one read ($1).
    expect(summary.schedules).toEqual([
      { logicalId: 'Sweep', expression: 'rate(1 hour)', invocationsPerMonth: 730, monthlyUsd: 730 * 2.5 },
    ]);
    expect(summary.fixedMonthlyUsd).toBeCloseTo(2.4 + 730 * 2.5, 6);
  });

  it('refuses to price a schedule that runs anything but the measured sweep', () => {
    const other = {
      ...fixed,
      schedules: [{ logicalId: 'Nightly', expression: 'rate(1 day)', target: 'Other' }],
    };

    expect(() => summarizeCost(measurement, functions, other, roundPrices)).toThrow(/Nightly/);
  });
});

describe('formatAwsCost', () => {
  it('gives the usage and the bill of each piece of work, the monthly lines, and the two headline figures', () => {
    const summary = summarizeCost(measurement, functions, fixed, roundPrices);

    const text = formatAwsCost(summary, {
      ...fixed,
      items: [
        ...fixed.items,
        {
          ...fixed.items[0]!,
          item: 'KMS customer managed keys',
          resourceType: 'AWS::KMS::Key',
          resources: 1,
          billedUnits: 1,
          monthlyUsd: 1,
        },
      ],
      monthlyUsd: 3.4,
    });

    expect(text).toContain(
      '| widget page load (list page 1, count, pageview +1 and its preflight) | 3 | 3: comment 100.0, article 100.0 | 3 | 1 | 0 | 0 | 1 |',
    );
    expect(text).toContain(
      '| CloudWatch alarms (per alarm metric) | AWS::CloudWatch::Alarm | 11 | 24 | $2.40 |',
    );
    expect(text).toContain(
      '| notifier sweep, rate(1 hour) | AWS::Events::Rule | 1 | 730 invocations | $1825.00 |',
    );
    expect(text).toContain('the stack adds $1.00 a month: 1 more of KMS customer managed keys.');
    expect(formatAwsCostHeadline(summary)).toBe(
      'AWS cost: $17500000.00 per million widget page loads, $245000.00 per thousand new comments with their ' +
        'notices (new reply, the owner and the parent author mailed), and $1827.40 a month fixed',
    );
  });

  it('writes sub-cent amounts with two significant digits', () => {
    expect(dollars(0)).toBe('$0');
    expect(dollars(0.000_374_9)).toBe('$0.00037');
    expect(dollars(6.144)).toBe('$6.14');
  });
});

describe('pageLoadCalls', () => {
  it('sends what @waline/client 3 sends for a page with comments and a pageview counter', () => {
    const calls = pageLoadCalls('/post/');

    expect(
      calls.map(
        (call) => `${call.function} ${call.spec.method ?? 'GET'} ${call.spec.path}?${call.spec.query}`,
      ),
    ).toEqual([
      'comment GET /api/comment?path=%2Fpost%2F&pageSize=10&page=1&lang=en-US&sortBy=insertedAt_desc',
      'comment GET /api/comment?type=count&url=%2Fpost%2F&lang=en-US',
      'article POST /api/article?lang=en-US',
    ]);
    expect(calls[2]?.spec.body).toEqual({ path: '/post/', type: 'time', action: 'inc' });
  });
});
