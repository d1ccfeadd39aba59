import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandler } from '../../../functions/shared/http/http-types.js';
import type { CommentDependencies } from '../../../functions/comment/dependencies.js';
import type { FunctionName } from '../../../functions/api-routes.js';
import { createLocalFunctions } from '../../../scripts/local-functions.js';
import { createLocalServer, type LocalServerOptions } from '../../../scripts/local-server.js';
import { sendJsonFrom } from '../../../scripts/send-json.js';
import { testConfig } from '../../support/test-config.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** The real local server (API, demo pages, widget files, avatars) on an ephemeral port, over a fresh table. */
export interface WidgetServer {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** The services behind the handlers, for setting up state a test cannot reach through the API. */
  readonly services: CommentDependencies;
  /** The table behind the server, for a process of its own on it (the notifier, reading its stream). */
  readonly table: Pick<TestTable, 'tableName' | 'endpoint'>;
  /**
   * Sends one JSON request to the API and returns the parsed answer. `from` picks the client address
   * (any 127.0.0.0/8 address), so tests can vote as several voters.
   */
  api(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, from?: string): Promise<unknown>;
  /** Stops the server and drops the table. */
  stop(): Promise<void>;
}

/**
 * Starts the server as `npm start` wires it, with avatars from its own /avatar route; `env` adds settings (or
 * makes them from the server's base, for the settings that name it), `options` the local server's (a demo site
 * with a captcha site key).
 */
export async function startWidgetServer(
  env: Record<string, string> | ((base: string) => Record<string, string>) = {},
  options: LocalServerOptions = {},
): Promise<WidgetServer> {
  const table = await createTestTable();
  // The avatar template needs the port, which is known only once the server listens: build handlers then.
  const built: { handlers?: Record<FunctionName, HttpHandler> } = {};
  const ready = (name: FunctionName): HttpHandler => {
    if (!built.handlers) throw new Error('the handlers are not built yet');
    return built.handlers[name];
  };
  const server: Server = createLocalServer(
    {
      comment: (event, context) => ready('comment')(event, context),
      article: (event, context) => ready('article')(event, context),
    },
    options,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const { handlers, comment: services } = createLocalFunctions(
    testConfig({
      TABLE_NAME: table.tableName,
      DYNAMODB_ENDPOINT: table.endpoint,
      // Every request of the browser comes from 127.0.0.1, and a test posts many comments in a few seconds:
      // the default limit (one comment per IP per 60 s) would refuse all but the first.
      IPQPS: '0',
      GRAVATAR_STR: `${base}/avatar/{{mail|md5}}.svg`,
      ...(typeof env === 'function' ? env(base) : env),
    }),
  );
  built.handlers = handlers;

  return {
    base,
    services,
    table: { tableName: table.tableName, endpoint: table.endpoint },
    api: (method, path, body, from = '127.0.0.1') => sendJsonFrom(from, { port, method, path, body }),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await table.drop();
    },
  };
}
