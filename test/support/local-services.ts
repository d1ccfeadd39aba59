import type { CommentDependencies } from '../../functions/comment/dependencies.js';
import { createLocalFunctions } from '../../scripts/local-functions.js';
import { matchRoute } from '../../scripts/local-server.js';
import { buildEvent, type EventSpec, testContext } from './http-event.js';
import { testConfig } from './test-config.js';
import type { TestTable } from './test-table.js';

/**
 * The real handlers over a test table, and a `call` that sends them one request; `services` are the comment
 * function's dependencies (`overrides` swaps some), for state a test cannot reach through the API.
 */
export function createLocalApi(
  table: TestTable,
  env: Record<string, string> = {},
  overrides: Partial<CommentDependencies> = {},
) {
  const { handlers, comment: services } = createLocalFunctions(
    testConfig({
      TABLE_NAME: table.tableName,
      DYNAMODB_ENDPOINT: table.endpoint,
      // The Lambda defaults (1 s to connect, 2.5 s a request) are for DynamoDB; the shared DynamoDB Local
      // of a loaded test run can take longer to accept 200 connections at once, which says nothing of ours.
      DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
      DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
      ...env,
    }),
    { comment: overrides },
  );
  const { comment, article } = handlers;
  return {
    services,
    async call(spec: EventSpec) {
      // The function API Gateway would send it to: unknown routes go to the comment function ($default).
      const handler = matchRoute(spec.method ?? 'GET', spec.path).function === 'article' ? article : comment;
      const response = await handler(buildEvent(spec), testContext);
      // A body of another declared type (a feed, a page) stays text.
      const type = response.headers['content-type'];
      return {
        status: response.statusCode,
        headers: response.headers,
        body:
          type === undefined || type.includes('json') ? JSON.parse(response.body || 'null') : response.body,
      };
    },
  };
}
