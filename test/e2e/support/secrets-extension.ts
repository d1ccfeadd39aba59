/**
 * A stand-in for the AWS Parameters and Secrets Lambda Extension, the layer through which the comment
 * function reads its SSM SecureStrings: GET /systemsmanager/parameters/get?name=… answers GetParameter's
 * output as JSON to callers that present the function's session token, and SSM's ParameterNotFound
 * for a parameter the operator has not created.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running stand-in. */
export interface SecretsExtension {
  /** Its port on 127.0.0.1: the function's PARAMETERS_SECRETS_EXTENSION_HTTP_PORT. */
  readonly port: number;
  /** The parameter names asked for so far, in order. */
  readonly asked: readonly string[];
  close(): Promise<void>;
}

/** Starts a stand-in that serves `parameters` (name to value) to callers presenting `sessionToken`. */
export async function startSecretsExtension(
  sessionToken: string,
  parameters: Readonly<Record<string, string>>,
): Promise<SecretsExtension> {
  const asked: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const name = url.searchParams.get('name') ?? '';
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers['x-aws-parameters-secrets-token'] !== sessionToken) {
      answer(401, { message: 'missing or wrong X-Aws-Parameters-Secrets-Token' });
      return;
    }
    if (url.pathname !== '/systemsmanager/parameters/get' || !name) {
      answer(400, { message: 'not a GetParameter request' });
      return;
    }
    asked.push(name);
    const value = parameters[name];
    if (value === undefined) {
      answer(400, { __type: 'ParameterNotFound', message: `parameter ${name} not found` });
      return;
    }
    answer(200, { Parameter: { Name: name, Type: 'SecureString', Value: value, Version: 1 } });
  });
  await new Promise<void>((resolveListening) => server.listen(0, '127.0.0.1', resolveListening));
  return {
    port: (server.address() as AddressInfo).port,
    asked,
    close: () =>
      new Promise((resolveClosed) => {
        server.close(() => resolveClosed());
        server.closeAllConnections();
      }),
  };
}
