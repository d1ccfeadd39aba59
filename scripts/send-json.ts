import { request as httpRequest } from 'node:http';

/**
 * Sends `body` as JSON to the local server on 127.0.0.1:`port` from the loopback address `from`
 * (each seeded visitor gets its own IP, so rate limits and votes treat them apart), and resolves
 * with the parsed answer; an answer of 400 or more rejects with its text.
 */
export function sendJsonFrom(
  from: string,
  request: { readonly port: number; readonly method: string; readonly path: string; readonly body?: unknown },
): Promise<unknown> {
  const { port, method, path, body } = request;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((incoming.statusCode ?? 500) >= 400) {
            reject(new Error(`${method} ${path} answered ${incoming.statusCode}: ${text}`));
          } else {
            resolve(JSON.parse(text) as unknown);
          }
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
