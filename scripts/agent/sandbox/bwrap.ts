/**
 * @module bwrap
 * The bubblewrap command line of the sandbox: system directories and the
 * pinned Node read-only, the workspace and a fresh home writable, a private
 * /tmp, its own user, PID and network namespaces (loopback only: the bridge
 * forwards the allowed ports), a clean environment, and nothing of the
 * wirebench checkout or the farm's state. Read-only mounts come from staged
 * copies outside the checkout (its path would show in the mount table), and
 * the command line goes to bubblewrap through a pipe (`--args`): an argv is
 * readable by every process on the machine, the sandbox's own included.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stagedCopy } from "./staged-copy.ts";

/** Where things appear inside the sandbox. */
export const SANDBOX = {
  workspace: "/workspace",
  home: "/home/agent",
  node: "/opt/wirebench/node",
  bridge: "/run/wirebench",
  netbridge: "/opt/wirebench/netbridge.ts",
} as const;

/** uid and gid the sandboxed processes see. */
const INNER_ID = 1000;

export interface SandboxSpec {
  /** Host folder mounted writable at /workspace. */
  workspace: string;
  /** Host folder mounted writable at /home/agent. */
  home: string;
  /** Host folder of the bridge's Unix sockets, mounted at /run/wirebench. */
  bridgeDir: string;
  /** Extra read-only mounts (a lane's CLI). */
  mounts: { host: string; sandbox: string }[];
  /** The whole environment of the command (PATH and HOME are added). */
  env: Record<string, string>;
  /** Loopback ports forwarded to proxy sockets (socket names inside bridgeDir), on `host` (default 127.0.0.1). */
  forward: { port: number; socket: string; host?: string }[];
  /** Sockets (names inside bridgeDir) forwarded to ports inside. */
  reverse: { socket: string; port: number }[];
  argv: string[];
  /** Working directory inside (default /workspace). */
  cwd?: string;
}

/** Where bubblewrap is installed (a path, so no later PATH decides which program runs). */
export function bwrapPath(): string {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    const candidate = join(dir, "bwrap");
    if (dir.startsWith("/") && existsSync(candidate)) return candidate;
  }
  return "/usr/bin/bwrap";
}

/** Whether bubblewrap is installed, with its version. */
export function bwrapVersion(): string | null {
  try {
    return execFileSync("bwrap", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

/**
 * The loopback address the bridge listens on for a farm: the farm's own when it
 * is an IPv4 loopback address (a farm on 127.0.0.2 keeps its vendor URLs valid
 * inside the sandbox, whose loopback holds all of 127.0.0.0/8), else 127.0.0.1.
 */
export function bridgeHost(url: string): string {
  const host = new URL(url).hostname;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ? host : "127.0.0.1";
}

/** `bwrap` options (for `--args`) that run `SANDBOX_ENTRY` with `spec.argv` behind the network bridge, with a private /tmp of `tmpBytes`. */
export function sandboxArgv(spec: SandboxSpec, tmpBytes: number): string[] {
  const netbridge = stagedCopy(join(dirname(fileURLToPath(import.meta.url)), "netbridge.ts"));
  const node = stagedCopy(process.execPath);
  const env: Record<string, string> = {
    PATH: `${SANDBOX.node}/bin:/usr/local/bin:/usr/bin:/bin`,
    HOME: SANDBOX.home,
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    ...spec.env,
    WIREBENCH_BRIDGE: JSON.stringify({
      forward: spec.forward.map((f) => ({ port: f.port, socket: `${SANDBOX.bridge}/${f.socket}`, host: f.host ?? "127.0.0.1" })),
      reverse: spec.reverse.map((r) => ({ socket: `${SANDBOX.bridge}/${r.socket}`, port: r.port })),
      argv: spec.argv,
      cwd: spec.cwd ?? SANDBOX.workspace,
    }),
  };
  const args = [
    "--die-with-parent",
    "--unshare-user",
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--uid",
    String(INNER_ID),
    "--gid",
    String(INNER_ID),
    "--hostname",
    "sandbox",
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/sbin",
    "/sbin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--ro-bind",
    "/etc",
    "/etc",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--size",
    String(tmpBytes),
    "--tmpfs",
    "/tmp",
    "--dir",
    "/opt/wirebench",
    "--dir",
    `${SANDBOX.node}/bin`,
    "--ro-bind",
    node,
    `${SANDBOX.node}/bin/node`,
    "--ro-bind",
    netbridge,
    SANDBOX.netbridge,
    // A login shell resets PATH: `node` must be the pinned Node whichever PATH finds it.
    ...(existsSync("/usr/bin/node") ? ["--ro-bind", node, "/usr/bin/node"] : []),
    "--bind",
    spec.workspace,
    SANDBOX.workspace,
    "--bind",
    spec.home,
    SANDBOX.home,
    "--bind",
    spec.bridgeDir,
    SANDBOX.bridge,
  ];
  for (const m of spec.mounts) args.push("--ro-bind", stagedCopy(m.host), m.sandbox);
  // fd 3 tells the harness the sandboxed process's pid: SIGTERM goes to it, so bubblewrap outlives the grace period.
  args.push("--info-fd", "3", "--chdir", spec.cwd ?? SANDBOX.workspace, "--clearenv");
  for (const [k, v] of Object.entries(env)) args.push("--setenv", k, v);
  return args;
}

/** The command bubblewrap starts, after `--` on its own argv (`--args` carries options only): no secret and no host path. */
export const SANDBOX_ENTRY = ["--", `${SANDBOX.node}/bin/node`, SANDBOX.netbridge] as const;

/** The NUL-separated form `bwrap --args FD` reads. */
export function argsPayload(args: readonly string[]): Buffer {
  if (args.some((a) => a.includes("\0"))) throw new Error("a sandbox argument holds a NUL byte");
  return Buffer.from(args.map((a) => `${a}\0`).join(""));
}
