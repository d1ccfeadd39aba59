import { AppError } from '../../functions/shared/domain/errors.js';
import { failure } from '../../functions/shared/http/envelope.js';
import type { Router } from '../../functions/shared/http/http-function.js';
import { toApiRequest } from '../../functions/shared/http/request.js';
import { buildEvent, type EventSpec } from './http-event.js';

/** What a route answered: its status and its parsed JSON body. */
export interface RouteAnswer {
  readonly statusCode: number;
  readonly body: unknown;
}

/**
 * What `route` answers the request `spec` describes, called directly (no middleware): an AppError below
 * 500 becomes its failure envelope, as the HTTP function's error middleware makes it; anything else is
 * thrown, so a test cannot mistake a crash for a refusal.
 */
export async function routeAnswer(route: Router, spec: EventSpec): Promise<RouteAnswer> {
  try {
    const result = await route(toApiRequest(buildEvent(spec)));
    return { statusCode: result.statusCode, body: JSON.parse(result.body) as unknown };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const result = failure(error);
    return { statusCode: result.statusCode, body: JSON.parse(result.body) as unknown };
  }
}
