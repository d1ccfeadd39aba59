// Hand-written rather than Powertools Logger (no longer a dependency: the figures come from trial builds
// with it) for its cold-start cost: with its middy middleware it adds +1.2 to +3.7 ms (1 to 4.4 %) to each
// function's cold start and 21.6 KB minified to its bundle (medians of 60 to 120 paired cold starts,
// scripts/bench/cold-start-runner.ts, Node 20; loading it takes 1.0 ms, building the logger 0.8 ms), against
// a cold-start target of 1.15x an SDK-only function's that is already missed.

/** The Lambda request id of the invocation being served. */
let requestId: string | undefined;

/**
 * Names the invocation whose lines follow; http-function.ts calls it as each one starts. A module
 * variable is enough on Lambda, which serves one invocation at a time per instance; in local mode,
 * overlapping requests may log the later one's id.
 */
export function setRequestId(id: string | undefined): void {
  requestId = id;
}

/**
 * Writes one error line as JSON, the shape CloudWatch Logs Insights filters on (`level`, `message`), with
 * the invocation's Lambda request id (`requestId`, the key of Lambda's own JSON log lines).
 */
export function logError(message: string, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: 'error', message, requestId, ...fields }));
}
