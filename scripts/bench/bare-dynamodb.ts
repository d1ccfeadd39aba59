/**
 * DynamoDB's JSON API with nothing around it, the yardstick of sdk-overhead.ts: the body written with
 * `JSON.stringify`, signed with the SDK's own SigV4 signer (the SignatureV4 a DynamoDBClient builds, on
 * node:crypto's SHA-256), posted over one keep-alive connection with node:http (DynamoDB Local speaks plain
 * HTTP; against AWS it would be node:https), the answer read whole and parsed with `JSON.parse`, its
 * attribute values left as DynamoDB writes them.
 */
import { Agent, request as httpRequest } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** One signed POST per call, on one keep-alive connection. */
export interface BareDynamoDb {
  call(operation: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): void;
}

/** The request SignatureV4 signs: the SDK's HttpRequest, as a plain object. */
interface UnsignedRequest {
  readonly method: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly port: number;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body: string;
}

interface Signer {
  sign(request: UnsignedRequest): Promise<{ headers: Record<string, string> }>;
}

/** A bare client of the DynamoDB at `endpoint` (http only), signing for `region` with `credentials`. */
export async function createBareDynamoDb(
  endpoint: string,
  region: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<BareDynamoDb> {
  const url = new URL(endpoint);
  if (url.protocol !== 'http:') throw new Error(`the bare client speaks http only, not ${url.protocol}`);
  // The signer the SDK would sign with, built once by the SDK itself: the same class and hash as the client's.
  const sdk = new DynamoDBClient({ region, credentials });
  const signer = (await (sdk.config as unknown as { signer: () => Promise<Signer> }).signer()) as Signer;
  sdk.destroy();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    async call(operation, input) {
      const body = JSON.stringify(input);
      const { headers } = await signer.sign({
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        port: Number(url.port),
        path: '/',
        query: {},
        headers: {
          host: url.host,
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `DynamoDB_20120810.${operation}`,
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      });
      const text = await new Promise<string>((resolve, reject) => {
        const sent = httpRequest(
          { agent, host: url.hostname, port: url.port, method: 'POST', path: '/', headers },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () => {
              const answer = Buffer.concat(chunks).toString('utf8');
              if (response.statusCode === 200) resolve(answer);
              else reject(new Error(`${operation}: HTTP ${response.statusCode}: ${answer}`));
            });
          },
        );
        sent.on('error', reject);
        sent.end(body);
      });
      return JSON.parse(text) as Record<string, unknown>;
    },
    close: () => agent.destroy(),
  };
}
