/**
 * @module agent-user
 * The unprivileged account the sandbox runs as. Root inside a user namespace
 * still reads files that root owns outside it, so the sandbox is never started
 * by root: the harness, when it runs as root (as CI does), starts bubblewrap as
 * this system account, creating it the first time.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

export const AGENT_USER = "wirebench-agent";

/** uid and gid to start the sandbox as; null when the harness itself is not root (it then runs bubblewrap as itself). */
export function sandboxAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const find = () =>
    readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((l) => l.split(":"))
      .find((f) => f[0] === AGENT_USER);
  let entry = find();
  if (!entry) {
    execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", AGENT_USER], { stdio: "pipe" });
    entry = find();
  }
  if (!entry) throw new Error(`could not create the sandbox account ${AGENT_USER}`);
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}
