import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';

/** An answer as it came over the wire. */
export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * Sends one request with node:http to `url`, its headers exactly as given: a `Host` or `Origin` here goes
 * out as written, as a browser on a rebound name or another page would send it.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<RawReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'GET',
        path: `${target.pathname}${target.search}`,
        headers: options.headers,
        agent: false,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The headers of a ListTables call to DynamoDB Local (it accepts any signature), and `extra`. */
export function listTablesHeaders(extra: OutgoingHttpHeaders = {}): OutgoingHttpHeaders {
  return {
    'Content-Type': 'application/x-amz-json-1.0',
    'X-Amz-Target': 'DynamoDB_20120810.ListTables',
    Authorization:
      'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    ...extra,
  };
}
