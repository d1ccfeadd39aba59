import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server read it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The connection it came on: 1 for the first the server accepted. */
  readonly connection: number;
}

/** What the server answers a request with; `undefined` leaves the request hanging (a stalled DynamoDB). */
export type Answer =
  { status?: number; headers?: Record<string, string | string[]>; body?: string } | 'reset';
type Responder = (request: RecordedRequest, index: number) => Answer | undefined;

/** An HTTP server on 127.0.0.1 that records every request and answers as `respond` says. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a recording server on an ephemeral port; stop it with close(). */
export async function startRecordingServer(respond: Responder = () => ({})): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server: Server = createServer((incoming, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        connection: (incoming.socket as { connectionNumber?: number }).connectionNumber ?? 0,
      };
      requests.push(request);
      const answer = respond(request, requests.length - 1);
      if (answer === undefined) return;
      if (answer === 'reset') {
        incoming.socket.destroy();
        return;
      }
      response.writeHead(answer.status ?? 200, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-requestid': `request-${requests.length}`,
        ...answer.headers,
      });
      response.end(answer.body ?? '{}');
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    (socket as { connectionNumber?: number }).connectionNumber = connections;
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/**
 * Checks a request's SigV4 signature from scratch (AWS's published algorithm, node:crypto only, nothing of
 * the SDK): rebuilds the canonical request from what arrived and signs it with `secretAccessKey`. Returns the
 * signed header names; throws when the signature does not match.
 */
export function verifySigV4(request: RecordedRequest, secretAccessKey: string): string[] {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) throw new Error(`not a SigV4 Authorization header: ${authorization}`);
  const [, , day, region, service, signedHeaderList, signature] = match as unknown as string[];
  const signedHeaders = signedHeaderList!.split(';');
  const amzDate = String(request.headers['x-amz-date']);
  const [path, query = ''] = request.url.split('?');
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('='))
    .sort(([a = '', x = ''], [b = '', y = '']) => (a === b ? x.localeCompare(y) : a < b ? -1 : 1))
    .map(([key = '', value = '']) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = createHash('sha256').update(request.body).digest('hex');
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery,
    canonicalHeaders,
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${secretAccessKey}`, day!), region!), service!),
    'aws4_request',
  );
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  if (expected !== signature) throw new Error(`SigV4 signature mismatch for ${request.url}`);
  return signedHeaders;
}
