/**
 * The real Waline server for the benchmark: what @waline/vercel's vanilla.js does, but bound to 127.0.0.1
 * on a port the system picks, and counting its answers as bench-server.ts counts Marginalia's. thinkjs runs
 * this file twice: as the cluster master, which holds the port, and as its one worker, which serves.
 * waline-server.ts starts it, reads the port from `<WALINE_RUNTIME>/port` and the counts from
 * `GET /__bench/stats`.
 *
 * Environment: WALINE_DIR (the install of waline-install.ts), WALINE_RUNTIME (a scratch directory), and
 * Waline's own settings.
 */
import { Buffer } from 'node:buffer';
import cluster from 'node:cluster';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';

const runtime = process.env.WALINE_RUNTIME ?? '';
const load = createRequire(join(process.env.WALINE_DIR ?? '', 'package.json'));
const root = dirname(load.resolve('@waline/vercel/package.json'));
const Application = load('thinkjs');
new Application({
  ROOT_PATH: root,
  APP_PATH: join(root, 'src'),
  RUNTIME_PATH: runtime,
  proxy: true,
  env: 'production',
}).run();

/** The shape of ServerStats (server-process.ts), plus Waline's refusals. */
const stats = { answered: 0, inFlight: 0, byStatus: {}, acceptedPageviews: 0, refused: 0 };

/** The errno of a Waline answer (`{"errno":1000,...}`) from the start of its body; undefined if none. */
function errnoOf(chunk) {
  const head =
    typeof chunk === 'string'
      ? chunk.slice(0, 20)
      : Buffer.isBuffer(chunk)
        ? chunk.toString('utf8', 0, 20)
        : '';
  const match = /^\{"errno":(-?\d+)/.exec(head);
  return match ? Number(match[1]) : undefined;
}

/** Waline's request handler (koa's, which returns a promise), counted. */
function counted(handler) {
  return (request, response) => {
    if (request.url === '/__bench/stats') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(stats));
      return;
    }
    let errno;
    const end = response.end;
    response.end = (chunk, ...rest) => {
      errno = errnoOf(chunk);
      return end.call(response, chunk, ...rest);
    };
    const record = () => {
      const status = response.statusCode;
      stats.inFlight--;
      stats.answered++;
      stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
      // Waline refuses some requests (its rate limit, a duplicate) with HTTP 200 and a non-zero errno.
      const refused = status < 300 && errno !== undefined && errno !== 0;
      if (refused) stats.refused++;
      if (status < 300 && !refused && request.method === 'POST' && request.url?.startsWith('/api/article')) {
        stats.acceptedPageviews++;
      }
    };
    stats.inFlight++;
    // koa answers errors itself, so its promise settles once the answer is written (or given up on).
    void Promise.resolve(handler(request, response)).then(record, record);
  };
}

const { think } = globalThis;
think.config('host', '127.0.0.1');
think.config('port', 0);
think.config('createServer', (handler) =>
  createServer(counted(handler)).once('listening', function () {
    writeFileSync(join(runtime, 'port'), String(this.address().port));
  }),
);

if (cluster.isPrimary) {
  // The benchmark holds this pipe open: when it ends, even killed, Waline ends too (the worker follows).
  process.stdin.once('end', () => process.exit(0)).resume();
}
