/** The failed sign-ins remembered for one email address (an administrator's or not). */
export interface AccountFailures {
  /** Attempts counted since the last success (or since they were forgotten). */
  readonly failures: number;
  /** When the last one was counted, in ms since the epoch. */
  readonly lastAt: number;
  /** Until when no attempt is let through (0: none), in ms since the epoch. */
  readonly lockedUntil: number;
}
