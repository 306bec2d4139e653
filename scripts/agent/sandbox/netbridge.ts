/**
 * @module netbridge
 * The first process inside the sandbox. The sandbox has a network namespace
 * of its own (loopback only), so this bridge gives it exactly the ports the
 * attempt may use: each allowed loopback port is forwarded to a Unix socket
 * of the harness's allowlisting proxy, and the harness reaches the sandbox's
 * webhook listener (SERVE_PORT) through a socket the other way. Then it runs
 * the command, passes SIGTERM on, and exits with the command's code.
 *
 * Runs on the pinned Node inside the sandbox; configuration comes in the
 * `WIREBENCH_BRIDGE` environment variable (removed before the command starts).
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { connect, createServer } from "node:net";

interface BridgeConfig {
  /** Loopback ports inside the sandbox (on `host`: 127.0.0.1, or the farm's own 127.x address), each forwarded to a Unix socket of the proxy. */
  forward: { port: number; socket: string; host: string }[];
  /** Unix sockets the harness connects to, each forwarded to a 127.0.0.1 port inside. */
  reverse: { socket: string; port: number }[];
  argv: string[];
  cwd: string;
}

const config = JSON.parse(process.env.WIREBENCH_BRIDGE ?? "{}") as BridgeConfig;
delete process.env.WIREBENCH_BRIDGE;

function pipe(listen: (srv: ReturnType<typeof createServer>) => void, dial: () => ReturnType<typeof connect>): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer((inbound) => {
      const outbound = dial();
      inbound.pipe(outbound).pipe(inbound);
      const close = () => {
        inbound.destroy();
        outbound.destroy();
      };
      inbound.on("error", close);
      outbound.on("error", close);
    });
    srv.once("error", reject);
    srv.once("listening", () => resolve());
    listen(srv);
    srv.unref();
  });
}

await Promise.all([
  ...config.forward.map((f) =>
    pipe(
      (srv) => srv.listen(f.port, f.host),
      () => connect(f.socket),
    ),
  ),
  ...config.reverse.map((r) => {
    // A socket left by an earlier sandbox of the same attempt is stale: this sandbox owns the port now.
    rmSync(r.socket, { force: true });
    return pipe(
      (srv) => srv.listen(r.socket),
      () => connect(r.port, "127.0.0.1"),
    );
  }),
]);

const child = spawn(config.argv[0], config.argv.slice(1), { cwd: config.cwd, stdio: "inherit", env: process.env });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => child.kill(signal));
child.on("error", (err) => {
  process.stderr.write(`netbridge: cannot start ${config.argv[0]}: ${err.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + 9 : 1)));
