import type { AddressInfo } from 'node:net';
import type { CommentDependencies } from '../../functions/comment/dependencies.js';
import { createLocalFunctions, type LocalOverrides } from '../../scripts/local-functions.js';
import { createLocalServer } from '../../scripts/local-server.js';
import { testConfig } from './test-config.js';
import type { TestTable } from './test-table.js';

/** The real local server over a test table, on 127.0.0.1 and an ephemeral port. */
export interface LocalHttpServer {
  /** The comment function's dependencies, for state a test cannot reach through the API. */
  readonly services: CommentDependencies;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  close(): Promise<void>;
}

/**
 * Starts the local server (scripts/local-server.ts) with the real handlers over `table`, configured by `env`;
 * `overrides` swaps parts of either function (an Akismet check aimed at a recording server).
 */
export async function startLocalHttpServer(
  table: TestTable,
  env: Record<string, string> = {},
  overrides: LocalOverrides = {},
): Promise<LocalHttpServer> {
  const { handlers, comment: services } = createLocalFunctions(
    testConfig({ TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint, ...env }),
    overrides,
  );
  const server = createLocalServer(handlers);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    services,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
