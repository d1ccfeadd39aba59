import { describe, expect, it } from 'vitest';
import { accessLogBytes, accessLogValues, platformLogBytes } from '../../../../scripts/bench/log-volume.js';

describe('platformLogBytes', () => {
  it("counts Lambda's START, END and REPORT lines of one invocation, with its duration and memory", () => {
    const id = '6f1d3f1c-8e3a-4b2f-9d3e-2a6c5b7e8f90';
    const expected =
      `START RequestId: ${id} Version: $LATEST\n` +
      `END RequestId: ${id}\n` +
      `REPORT RequestId: ${id}\tDuration: 12.35 ms\tBilled Duration: 13 ms\tMemory Size: 512 MB\tMax Memory Used: 100 MB\t\n`;

    expect(platformLogBytes(12.345, 13, 512)).toBe(Buffer.byteLength(expected));
    expect(platformLogBytes(1234.5, 1235, 512)).toBe(Buffer.byteLength(expected) + 4);
  });
});

describe('accessLogBytes', () => {
  it("fills the format's $context variables, writes - for one without a value, and counts the newline", () => {
    const format =
      '{"status":"$context.status","error":"$context.error.message","route":"$context.routeKey"}';

    expect(accessLogBytes(format, { status: '200', routeKey: 'GET /api/comment' })).toBe(
      Buffer.byteLength('{"status":"200","error":"-","route":"GET /api/comment"}\n'),
    );
  });

  it("takes the request's method, route, status, answer length and latency", () => {
    const values = accessLogValues({
      method: 'POST',
      routeKey: 'POST /api/article',
      path: '/api/article',
      status: 200,
      responseBytes: 57,
      latencyMs: 12.1,
    });

    expect(values).toMatchObject({
      httpMethod: 'POST',
      routeKey: 'POST /api/article',
      path: '/api/article',
      status: '200',
      responseLength: '57',
      responseLatency: '13',
      integrationLatency: '13',
    });
    expect(values.requestId).toHaveLength(16);
  });
});
