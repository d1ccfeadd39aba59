/**
 * A reverse proxy on loopback that lets through only requests addressed to this machine by a loopback name
 * and sent from no other origin: local mode puts it in front of a server that answers any origin itself
 * (maildev's web page and API reply to every Origin with credentials, and its socket.io to `*`).
 *
 * - `Host` must be 127.0.0.1, localhost or [::1], with the proxy's port or none. A page that rebinds its
 *   own name to 127.0.0.1 (DNS rebinding) sends its own name: refused.
 * - `Origin`, when present, must be the proxy's own: `http://` a loopback name and the proxy's port. Any
 *   other page's script sends its origin (on every cross-origin call, every POST, every WebSocket): refused.
 * - The server's CORS headers are taken out of its answers: the proxy's own pages need none, so no answer
 *   ever allows another origin.
 *
 * WebSocket upgrades (socket.io, which maildev's page uses for new mail) pass the same checks, then the
 * connection is piped to the server as it stands.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';

/** Where the proxy listens and what it forwards to. */
export interface LoopbackProxyOptions {
  /** The server behind the proxy, on loopback. */
  readonly target: { readonly host: string; readonly port: number };
  /** The address the proxy listens on; defaults to 127.0.0.1. */
  readonly host?: string;
  /** The proxy's port; 0 (the default) takes a free one. */
  readonly port?: number;
  /** What the proxy stands in front of, for its refusals ("the local inbox"). */
  readonly name: string;
}

/** A running proxy. */
export interface LoopbackProxy {
  /** `http://<host>:<port>`: the address to print and use. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const loopbackNames = /^(?:127\.0\.0\.1|localhost|\[::1\])$/i;

/**
 * Why a request must not pass, in a sentence; undefined when it may. `port` is the proxy's: a Host or Origin
 * naming another port is another server's name.
 */
function refusal(headers: IncomingHttpHeaders, port: number, name: string): string | undefined {
  const host = headers.host;
  if (host !== undefined && !isLoopbackAuthority(host, port, true)) {
    return `${name} answers only requests addressed to 127.0.0.1, localhost or [::1] on port ${port}.`;
  }
  const origin = headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, port)) {
    return `${name} answers no other origin than its own (http://127.0.0.1:${port}).`;
  }
  return undefined;
}

function isLoopbackAuthority(authority: string, port: number, portOptional: boolean): boolean {
  const match = /^(.+?)(?::(\d+))?$/.exec(authority);
  if (!match || !loopbackNames.test(match[1]!)) return false;
  return match[2] === undefined ? portOptional : Number(match[2]) === port;
}

function isOwnOrigin(origin: string, port: number): boolean {
  const match = /^http:\/\/([^/]+)$/i.exec(origin);
  return match !== null && isLoopbackAuthority(match[1]!, port, false);
}

/** Starts the proxy and resolves once it listens. */
export async function startLoopbackProxy(options: LoopbackProxyOptions): Promise<LoopbackProxy> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let port = 0;
  const server: Server = createServer((request, response) => forward(request, response, options, port));
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) =>
    tunnel(request, socket, head, options, port, sockets),
  );
  await new Promise<void>((resolveListening, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolveListening());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolveClosed) => {
        server.close(() => resolveClosed());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function forward(
  request: IncomingMessage,
  response: ServerResponse,
  options: LoopbackProxyOptions,
  port: number,
): void {
  const refused = refusal(request.headers, port, options.name);
  if (refused) {
    request.resume();
    response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`${refused}\n`);
    return;
  }
  const upstream = httpRequest(
    {
      host: options.target.host,
      port: options.target.port,
      method: request.method,
      path: request.url,
      headers: request.headers,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutCors(answer.headers));
      answer.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (response.headersSent) response.destroy();
    else {
      response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`${options.name} is not answering.\n`);
    }
  });
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
}

/** The answer's headers without the CORS ones: only the proxy's own origin gets this far, and it needs none. */
function withoutCors(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !name.startsWith('access-control-')),
  ) as IncomingHttpHeaders;
}

function tunnel(
  request: IncomingMessage,
  socket: Socket,
  head: Buffer,
  options: LoopbackProxyOptions,
  port: number,
  sockets: Set<Socket>,
): void {
  const refused = refusal(request.headers, port, options.name);
  if (refused) {
    socket.end(
      `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n` +
        `content-length: ${Buffer.byteLength(refused) + 1}\r\n\r\n${refused}\n`,
    );
    return;
  }
  const upstream = connect(options.target.port, options.target.host);
  sockets.add(socket).add(upstream);
  const closeBoth = () => {
    sockets.delete(socket);
    sockets.delete(upstream);
    socket.destroy();
    upstream.destroy();
  };
  socket.on('error', closeBoth).on('close', closeBoth);
  upstream.on('error', closeBoth).on('close', closeBoth);
  upstream.once('connect', () => {
    // The request as it came (headers in their raw form), then whatever the client sent after it.
    const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
    for (let index = 0; index < request.rawHeaders.length; index += 2) {
      lines.push(`${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
}
