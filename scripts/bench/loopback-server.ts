import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on 127.0.0.1: its address, and how to stop it (open connections included). */
export interface LoopbackServer {
  readonly endpoint: string;
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 and an ephemeral port. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolveListening) => server.listen(0, '127.0.0.1', resolveListening));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolveClosed) => {
        server.close(() => resolveClosed());
        server.closeAllConnections();
      }),
  };
}
