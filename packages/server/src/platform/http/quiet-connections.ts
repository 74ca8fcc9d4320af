import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Makes `server.close()` end every connection that is not answering a request, and each other one
 * as soon as its answer is written (with `Connection: close` when its head is not sent yet).
 *
 * Node's own close ends idle keep-alive connections, but counts a connection that has not yet sent
 * a request as busy and waits for it until the headers timeout (60 s) or the keep-alive timeout
 * (72 s). Browsers open such connections ahead of need, and Node's fetch opens one again after a
 * request it was told to abort (an SDK stopping its long poll): a stop then took 70 s with nothing
 * to finish.
 */
export function endQuietConnectionsOnClose(server: Server): void {
  const answering = new Map<Socket, Set<ServerResponse>>();
  const open = new Set<Socket>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      answering.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    let responses = answering.get(socket);
    if (!responses) answering.set(socket, (responses = new Set()));
    responses.add(response);
    if (closing) response.shouldKeepAlive = false;
    response.once('close', () => {
      responses.delete(response);
      if (responses.size > 0) return;
      answering.delete(socket);
      // end(), not destroy(): what was written is still on its way to the client.
      if (closing && !socket.destroyed) socket.end();
    });
  });

  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    closing = true;
    close(callback);
    for (const socket of open) {
      const responses = answering.get(socket);
      if (!responses) socket.destroy();
      else for (const response of responses) if (!response.headersSent) response.shouldKeepAlive = false;
    }
    return server;
  }) as typeof server.close;
}
