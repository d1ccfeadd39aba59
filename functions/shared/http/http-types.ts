import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** The event API Gateway HTTP API (payload format 2.0) hands a function. */
export type HttpEvent = APIGatewayProxyEventV2;

/** What our functions answer: always a status, headers and a string body. */
export interface HttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** A function entry point as Lambda, the local server and tests call it. */
export type HttpHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;
