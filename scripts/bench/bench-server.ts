/**
 * The server under load, run as its own process so its CPU time can be measured apart from the load
 * generator's: the real handlers behind scripts/local-server.ts, on the table the parent names, with the
 * per-IP limit off (every request comes from 127.0.0.1). It counts the answers it gives and reports them
 * to the parent over IPC: server-process.ts is the other end.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../functions/shared/config.js';
import type { HttpHandler } from '../../functions/shared/http/http-types.js';
import { createLocalFunctions } from '../local-functions.js';
import { createLocalServer } from '../local-server.js';
import type { ParentMessage, ServerMessage, ServerStats } from './server-process.js';

const stats: { -readonly [K in keyof ServerStats]: ServerStats[K] } = {
  answered: 0,
  inFlight: 0,
  byStatus: {},
  acceptedPageviews: 0,
};

/** Counts each answer of `handler`; `isPageview` says which requests are pageview increments. */
function counted(handler: HttpHandler, isPageview: (method: string) => boolean): HttpHandler {
  const record = (statusCode: number, method: string) => {
    stats.byStatus[statusCode] = (stats.byStatus[statusCode] ?? 0) + 1;
    if (statusCode < 300 && isPageview(method)) stats.acceptedPageviews++;
  };
  return async (event, context) => {
    const method = event.requestContext.http.method;
    stats.inFlight++;
    try {
      const result = await handler(event, context);
      record(result.statusCode, method);
      return result;
    } catch (error) {
      // The local server turns a thrown error into a 500.
      record(500, method);
      throw error;
    } finally {
      stats.inFlight--;
      stats.answered++;
    }
  };
}

const send = (message: ServerMessage) => process.send?.(message);

const { handlers } = createLocalFunctions(loadConfig({ ...process.env, IPQPS: '0' }));
const server = createLocalServer({
  comment: counted(handlers.comment, () => false),
  article: counted(handlers.article, (method) => method === 'POST'),
});
server.listen(0, '127.0.0.1', () => {
  send({ type: 'listening', port: (server.address() as AddressInfo).port });
});
process.on('message', (message: ParentMessage) => {
  if (message.type === 'stats') send({ type: 'stats', stats: structuredClone(stats) });
});
// The parent went away (stopped, or crashed): nothing is left to serve.
process.on('disconnect', () => process.exit(0));
