import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Parameters and Secrets extension on `host` (an ephemeral port): answers GetParameter
 * from `values`, which a test may change between requests (a rotation), and ParameterNotFound for any
 * other name. Records each request's parameter name and session token.
 */
export async function startFakeSecretsExtension(host = '127.0.0.1') {
  const values = new Map<string, string>();
  const requests: { name: string | null; token: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://extension');
    const name = url.searchParams.get('name');
    const token = request.headers['x-aws-parameters-secrets-token'];
    requests.push({ name, token: typeof token === 'string' ? token : undefined });
    const value = name === null ? undefined : values.get(name);
    if (value === undefined) {
      response.writeHead(400).end(`ParameterNotFound: ${name}`);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ Parameter: { Name: name, Type: 'SecureString', Value: value } }));
  });
  await new Promise<void>((listening) => server.listen(0, host, listening));
  return {
    values,
    requests,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
