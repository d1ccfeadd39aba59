import type { AddressInfo } from 'node:net';
import { createArticleHandler } from '../../functions/article/article-handler.js';
import { createCommentHandler } from '../../functions/comment/comment-handler.js';
import { createServices, type Services } from '../../functions/shared/services.js';
import { createLocalServer } from '../../scripts/local-server.js';
import { testConfig } from './test-config.js';
import type { TestTable } from './test-table.js';

/** The real local server over a test table, on 127.0.0.1 and an ephemeral port. */
export interface LocalHttpServer {
  readonly services: Services;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  close(): Promise<void>;
}

/** Starts the local server (scripts/local-server.ts) with the real handlers over `table`, configured by `env`. */
export async function startLocalHttpServer(
  table: TestTable,
  env: Record<string, string> = {},
): Promise<LocalHttpServer> {
  const services = createServices(
    testConfig({ TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint, ...env }),
  );
  const server = createLocalServer({
    comment: createCommentHandler(services),
    article: createArticleHandler(services),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    services,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
