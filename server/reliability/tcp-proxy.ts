import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the app and PostgreSQL that a test can cut and restore: `cut()` drops every
 * open connection and refuses new ones (as a restarting database does), `restore()` accepts again on
 * the same port. The machine's PostgreSQL server is never touched.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen() {
    server = createServer((client) => {
      const upstream = createConnection(target);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  }

  await listen();
  return {
    get port() {
      return port;
    },
    /** Open connections through the proxy right now. */
    get connections() {
      return sockets.size / 2;
    },
    async cut() {
      const closed = server ? new Promise((resolve) => server?.close(resolve)) : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      await closed;
      server = undefined;
    },
    async restore() {
      if (!server) await listen();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    },
  };
}
