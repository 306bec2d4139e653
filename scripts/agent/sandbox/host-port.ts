/**
 * @module host-port
 * A TCP port on the host whose connections reach a Unix socket: how the farm
 * (and the harness's readiness probes) reach a listener inside the sandbox,
 * through the bridge's reverse socket.
 */
import { connect, createServer, type Server } from "node:net";

export async function hostPortTo(socket: string): Promise<{ port: number; server: Server }> {
  const server = createServer((inbound) => {
    const outbound = connect(socket);
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on("error", close);
    outbound.on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}
