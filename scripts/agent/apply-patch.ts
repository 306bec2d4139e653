/**
 * @module apply-patch
 * A submitted patch applied the way untrusted text must be: to a fresh copy
 * of the task's starter in a repository the harness builds and owns (git with
 * no system or global configuration, no hooks, no fsmonitor), after checking
 * what it would touch. A patch is refused, with the reason, when it is over
 * the size cap, declares binary hunks that inflate past BINARY_MAX_BYTES,
 * creates a symbolic link or a submodule, names a path outside
 * the repository or under `.git`, or does not apply. Links are written as
 * plain files even so (`core.symlinks=false`), and the applied tree is walked
 * for any link before it is graded. The repository's `.git` is removed, so
 * the tree graded is the starter plus the patch and nothing else.
 */
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PATCH_MAX_BYTES } from "./take-patch.ts";
import { git, initBaselineRepo } from "./workspace.ts";

export type AppliedPatch = { ok: true } | { ok: false; reason: string };

/** File modes a patch may not give a path: a symbolic link, a submodule (gitlink). */
const REFUSED_MODES: Record<string, string> = { "120000": "a symbolic link", "160000": "a submodule" };

/** The reason git gave, from a failed call (its first `error:`/`fatal:` line). */
function gitReason(err: unknown): string {
  const stderr = String((err as { stderr?: unknown }).stderr ?? "");
  const line = stderr.split("\n").find((l) => /^(error|fatal):/.test(l)) ?? stderr.split("\n").find((l) => l.trim()) ?? (err as Error).message.split("\n")[0];
  return line.trim();
}

/** A mode header that gives a path a refused mode, or null. Header lines start a line; hunk lines start with ' ', '+', '-' or '\'. */
function refusedMode(patch: string): string | null {
  for (const m of patch.matchAll(/^(?:new file mode|new mode|old mode|deleted file mode|index [0-9a-f]+\.\.[0-9a-f]+) ([0-7]{6})$/gm)) {
    const what = REFUSED_MODES[m[1]];
    if (what) return `the patch makes ${what} (mode ${m[1]}): only regular files are accepted`;
  }
  return null;
}

/** Most bytes the binary hunks of a patch may declare (the cap on an agent's tree): a deflated hunk of a few KiB can inflate to GiBs. */
export const BINARY_MAX_BYTES = 256 * 1024 ** 2;

/**
 * Binary hunks (`literal N`, `delta N`: N the inflated size of the hunk's data, which git checks)
 * adding up to more than BINARY_MAX_BYTES, or null.
 */
function binaryRefusal(patch: string): string | null {
  let total = 0;
  for (const m of patch.matchAll(/^(?:literal|delta) (\d+)$/gm)) {
    total += Number(m[1]);
    if (total > BINARY_MAX_BYTES) return `the patch's binary hunks inflate to more than ${BINARY_MAX_BYTES} bytes`;
  }
  return null;
}

/** A path the patch names that lies outside the repository or under `.git`, or null. */
function refusedPath(path: string): string | null {
  if (path === "" || path.startsWith("/")) return `the patch names the path "${path}", which is not inside the repository`;
  const parts = path.split("/");
  if (parts.includes("..")) return `the patch names the path "${path}", which leaves the repository`;
  if (parts.some((p) => p.toLowerCase() === ".git")) return `the patch names the path "${path}", under .git`;
  return null;
}

/** Paths a patch touches, as git reads them (`--numstat -z`: renames give both paths), without applying it. */
function touchedPaths(repo: string, patch: string): string[] {
  const out = git(repo, ["apply", "--numstat", "-z", "-"], patch, { quiet: true });
  return out.split("\0").flatMap((field) => {
    // `added\tdeleted\tpath`, or `added\tdeleted\t` followed by the two paths of a rename or copy.
    const m = /^(?:\d+|-)\t(?:\d+|-)\t(.*)$/s.exec(field);
    if (m) return m[1] === "" ? [] : [m[1]];
    return field === "" ? [] : [field];
  });
}

/** The first symbolic link under `dir` (`.git` aside), or null. */
function firstLink(dir: string, rel = ""): string | null {
  for (const name of readdirSync(join(dir, rel))) {
    if (rel === "" && name === ".git") continue;
    const path = join(rel, name);
    const st = lstatSync(join(dir, path));
    if (st.isSymbolicLink()) return path;
    if (st.isDirectory()) {
      const inner = firstLink(dir, path);
      if (inner) return inner;
    }
  }
  return null;
}

/**
 * Writes the starter (`starterDir`) with `patch` applied into `target`
 * (which must not exist). On refusal `target` is removed and the reason given.
 */
export function applyUntrustedPatch(starterDir: string, patch: string, target: string): AppliedPatch {
  const refuse = (reason: string): AppliedPatch => {
    rmSync(target, { recursive: true, force: true });
    return { ok: false, reason };
  };
  const bytes = Buffer.byteLength(patch);
  if (bytes > PATCH_MAX_BYTES) return { ok: false, reason: `the patch is ${bytes} bytes, over the ${PATCH_MAX_BYTES}-byte cap` };
  const mode = refusedMode(patch) ?? binaryRefusal(patch);
  if (mode) return { ok: false, reason: mode };
  initBaselineRepo(target, starterDir);
  if (patch.trim() !== "") {
    let paths: string[];
    try {
      paths = touchedPaths(target, patch);
    } catch (err) {
      return refuse(`the patch does not apply to the starter: ${gitReason(err)}`);
    }
    for (const p of paths) {
      const why = refusedPath(p);
      if (why) return refuse(why);
    }
    try {
      git(target, ["-c", "core.symlinks=false", "apply", "--binary", "--whitespace=nowarn", "-"], patch, { quiet: true });
    } catch (err) {
      return refuse(`the patch does not apply to the starter: ${gitReason(err)}`);
    }
  }
  const link = firstLink(target);
  if (link) return refuse(`the patched tree holds a symbolic link (${link}): only regular files are accepted`);
  rmSync(join(target, ".git"), { recursive: true, force: true });
  return { ok: true };
}
