/**
 * @module ownership
 * Handing a harness-built folder to the sandbox account. Only matters when the
 * harness runs as root (the sandbox never does); root reads and deletes what
 * the sandbox leaves without taking it back, so ownership only ever moves one
 * way, and only before any sandboxed process can touch the folder.
 *
 * The walk never leaves the folder: a link is re-owned itself (`lchown`) and
 * never followed or descended, and a folder on another device (a mount) is not
 * entered. A tree the agent has written can hold links to anywhere; this walk
 * gives none of their targets away.
 */
import { lchownSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sandboxAccount } from "./agent-user.ts";

/** Re-owns `root` and everything below it on its device, links themselves and never their targets. */
export function chownTreeNoFollow(root: string, uid: number, gid: number): void {
  const top = lstatSync(root, { throwIfNoEntry: false });
  if (!top) return;
  const stack = [root];
  while (stack.length) {
    const path = stack.pop()!;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.dev !== top.dev) continue;
    lchownSync(path, uid, gid);
    if (st.isDirectory()) for (const name of readdirSync(path)) stack.push(join(path, name));
  }
}

/**
 * Gives a folder the harness built to the sandbox account. Call it only while
 * no sandboxed process is running on the folder: a link swapped in mid-walk
 * is the one race `lstat` cannot close.
 */
export function handOver(dir: string): void {
  const account = sandboxAccount();
  if (account) chownTreeNoFollow(dir, account.uid, account.gid);
}

/** Gives one harness-made entry (a folder it just created) to the sandbox account, never what it links to or holds. */
export function handOverEntry(path: string): void {
  const account = sandboxAccount();
  if (account) lchownSync(path, account.uid, account.gid);
}
