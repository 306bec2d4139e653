/**
 * @module ownership
 * Handing host folders to the sandbox account and taking them back. Only
 * matters when the harness runs as root (the sandbox never does).
 */
import { chownSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { sandboxAccount } from "./agent-user.ts";

function chownTree(path: string, uid: number, gid: number): void {
  try {
    chownSync(path, uid, gid);
  } catch {
    return;
  }
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}

/** Gives a host folder to the sandbox account. */
export function handOver(dir: string): void {
  const account = sandboxAccount();
  if (account) chownTree(dir, account.uid, account.gid);
}

/** Takes ownership back, so the harness can read and delete everything. */
export function takeBack(dir: string): void {
  if (process.getuid?.() === 0) chownTree(dir, 0, 0);
}
