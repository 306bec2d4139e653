/**
 * @module output-file
 * Reading a connector's declared output the way an untrusted folder must be
 * read: the file is opened without following a link, must be a regular file
 * whose real path is the named file inside the output folder (a folder swapped
 * for a link is caught by the path the kernel reports for the open file), and
 * is read up to a size cap. Whatever else stands there is reported, never read.
 * What is read is then parsed by the output's declared contract (`output-format.ts`).
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { OutputFile } from "../../evidence/verdict.ts";
import type { OutputContract } from "../../declarations/schema/output-contract.ts";
import { readByContract } from "./output-format.ts";

/** Largest output the harness reads (bytes). */
export const OUTPUT_MAX_BYTES = 32 * 1024 * 1024;

function refused(error: string): OutputFile {
  return { present: true, parsed: false, error };
}

/** Where `dir/name` must really be: `dir`'s parent resolved (the harness made it), `dir` itself taken as named. */
function expectedPath(dir: string, name: string): string {
  return join(realpathSync(dirname(dir)), basename(dir), name);
}

/** The bytes of `dir/name` when it is a regular file inside `dir`, or why not. */
function readInside(dir: string, name: string): Buffer | OutputFile {
  if (name.includes("/") || name === "." || name === "..") return refused(`"${name}" is not a file name`);
  let fd: number;
  try {
    fd = openSync(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { present: false };
    if (code === "ELOOP") return refused("the output is a symbolic link, not a regular file");
    return refused(`the output could not be opened (${code ?? "error"})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refused("the output is not a regular file");
    if (readlinkSync(`/proc/self/fd/${fd}`) !== expectedPath(dir, name)) return refused("the output is not inside the output folder");
    if (st.size > OUTPUT_MAX_BYTES) return refused(`the output is ${st.size} bytes, over the ${OUTPUT_MAX_BYTES}-byte cap`);
    const buf = Buffer.alloc(Math.min(st.size + 1, OUTPUT_MAX_BYTES + 1));
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = readSync(fd, buf, n, buf.length - n, null);
    if (n > OUTPUT_MAX_BYTES) return refused(`the output grew past the ${OUTPUT_MAX_BYTES}-byte cap while it was read`);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** A declared output file as the harness finds it in `dir`, read by its contract. */
export function readOutput(dir: string, name: string, contract: OutputContract): OutputFile {
  const bytes = readInside(dir, name);
  if ("present" in bytes) return bytes;
  const r = readByContract(name, contract, bytes.toString("utf8"));
  return r.ok ? { present: true, parsed: true, value: r.value } : { present: true, parsed: false, error: r.error };
}
