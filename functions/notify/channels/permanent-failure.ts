/**
 * A failure that trying again cannot mend: the receiver refused the notice as it is (a 4xx, SES's
 * `MessageRejected`, an SMTP 5xx) or the channel is misconfigured (no token, no secret). Such a delivery is
 * recorded failed with the reason and never retried automatically; a re-drive from /ui, after the fix,
 * tries it once more. Every other error (a refused connection, a timeout, a 5xx, a 429) is temporary.
 */
export class PermanentFailure extends Error {}

/** Whether `error` is a {@link PermanentFailure}. */
export function isPermanentFailure(error: unknown): boolean {
  return error instanceof PermanentFailure;
}

/**
 * Whether an HTTP answer refuses the request for good: every 4xx but 408 (Request Timeout) and 429 (Too
 * Many Requests), which ask to come back later.
 */
export function isPermanentStatus(status: number): boolean {
  return status >= 400 && status <= 499 && status !== 408 && status !== 429;
}
