import type { AppError } from '../domain/errors.js';
import type { HttpResult } from './http-types.js';

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };

/** A JSON response with `status`. */
export function jsonResponse(status: number, body: unknown): HttpResult {
  return { statusCode: status, headers: { ...jsonHeaders }, body: JSON.stringify(body) };
}

/** Waline's success envelope: `{"errno":0,"errmsg":"","data":...}`. */
export function envelope(data: unknown): HttpResult {
  return jsonResponse(200, { errno: 0, errmsg: '', data });
}

/** A bare JSON body, as the legacy (v2 client) routes answer reads. */
export function bare(data: unknown): HttpResult {
  return jsonResponse(200, data);
}

/** The failure envelope of `error`, with its real HTTP status. */
export function failure(error: AppError): HttpResult {
  return jsonResponse(error.status, {
    errno: error.errno,
    errmsg: error.message,
    ...(error.details ? { details: error.details } : {}),
  });
}
