import net from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, for a server started in a child process: the operating system picks
 * it (a random number could be a port in use, e.g. one of the machine's outgoing connections).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
