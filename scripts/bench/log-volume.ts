/**
 * The CloudWatch Logs bytes a request writes, for the cost section: the functions themselves log only
 * errors (functions/shared/log.ts), so what every request ingests is Lambda's three platform lines of each
 * invocation and the API stage's access-log line. Both are rebuilt here in their documented formats, with
 * the request's own figures, and measured in UTF-8 bytes.
 */

/** A Lambda request id, as long as every real one. */
const sampleRequestId = '6f1d3f1c-8e3a-4b2f-9d3e-2a6c5b7e8f90';

/** Lambda's START, END and REPORT lines (text log format) of one warm invocation, in bytes. */
export function platformLogBytes(durationMs: number, billedMs: number, memoryMb: number): number {
  const lines = [
    `START RequestId: ${sampleRequestId} Version: $LATEST`,
    `END RequestId: ${sampleRequestId}`,
    `REPORT RequestId: ${sampleRequestId}\tDuration: ${durationMs.toFixed(2)} ms\tBilled Duration: ${billedMs} ms\t` +
      // Max Memory Used: three digits, as a function of a few hundred MB reports.
      `Memory Size: ${memoryMb} MB\tMax Memory Used: 100 MB\t`,
  ];
  return Buffer.byteLength(lines.map((line) => `${line}\n`).join(''));
}

/** The `$context` values of one request, by variable name (`status`, `routeKey`, ...). */
export type AccessLogValues = Readonly<Record<string, string>>;

/**
 * The access-log line `format` (the stage's AccessLogSettings.Format, `$context.x` variables) gives for
 * `values`, in bytes: a variable without a value is written `-`, as API Gateway writes an empty one.
 */
export function accessLogBytes(format: string, values: AccessLogValues): number {
  const line = format.replace(/\$context\.([\w.]+)/g, (_, name: string) => values[name] ?? '-');
  return Buffer.byteLength(`${line}\n`);
}

/** The values API Gateway would log for a request, from what the bench knows of it. */
export function accessLogValues(request: {
  readonly method: string;
  readonly routeKey: string;
  readonly path: string;
  readonly status: number;
  readonly responseBytes: number;
  readonly latencyMs: number;
}): AccessLogValues {
  const latency = String(Math.ceil(request.latencyMs));
  return {
    // API Gateway's request ids are 16 characters.
    requestId: 'cPk4Vg_XoAMEb1A=',
    requestTimeEpoch: String(Date.UTC(2026, 10, 28)),
    httpMethod: request.method,
    routeKey: request.routeKey,
    path: request.path,
    status: String(request.status),
    responseLength: String(request.responseBytes),
    responseLatency: latency,
    integrationStatus: String(request.status),
    integrationLatency: latency,
  };
}
