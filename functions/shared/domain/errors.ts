/** Every way a request can fail, with its HTTP status and Waline `errno`. */
export const errorCodes = {
  invalid_input: { status: 400, errno: 1001 },
  unauthorized: { status: 401, errno: 401 },
  forbidden: { status: 403, errno: 403 },
  not_found: { status: 404, errno: 404 },
  method_not_allowed: { status: 405, errno: 405 },
  duplicate: { status: 409, errno: 1000 },
  /** The article takes no new comments (READONLY_AGE). */
  read_only: { status: 409, errno: 1000 },
  payload_too_large: { status: 413, errno: 1000 },
  unsupported_media_type: { status: 415, errno: 1000 },
  rate_limited: { status: 429, errno: 1000 },
  internal: { status: 500, errno: 500 },
  upgrade_required: { status: 503, errno: 503 },
  /** A service the request depends on (the captcha provider) did not answer: its message says what to do. */
  unavailable: { status: 503, errno: 503 },
} as const satisfies Record<string, { status: number; errno: number }>;

/** A failure code; the table above gives each one its status, so none can lack one. */
export type ErrorCode = keyof typeof errorCodes;

/** Per-field problems, shown to the caller as `details`. */
export type ErrorDetails = Record<string, string>;

/**
 * The one error type of the service. `message` is already in the caller's language; it is shown
 * to the caller only when the status is below 500.
 */
export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The HTTP status of this error. */
  get status(): number {
    return errorCodes[this.code].status;
  }

  /** The Waline `errno` of this error. */
  get errno(): number {
    return errorCodes[this.code].errno;
  }
}

/**
 * The table was written by an older version and `npm run migrate` has not run yet. Thrown by storage,
 * answered with a 503 whose message names the command (the one 5xx whose message is shown).
 */
export class UpgradeRequiredError extends Error {
  override readonly name = 'UpgradeRequiredError';

  constructor(readonly storedLayout: number | undefined) {
    super(`The table has item layout ${storedLayout ?? 1}; run \`npm run migrate\`.`);
  }
}
