/**
 * @module provenance
 * What an attempt records about the code that produced it: the wirebench
 * version and content hashes of the task's folder and of the harness.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { projectRoot } from "../farm/paths.ts";
import { taskDir } from "../harness/workspace.ts";

function treeHash(dirs: string[]): string {
  const hash = createHash("sha256");
  const root = projectRoot();
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
      return;
    }
    hash
      .update(`${relative(root, p)}\0`)
      .update(readFileSync(p))
      .update("\0");
  };
  for (const d of dirs) walk(d);
  return hash.digest("hex").slice(0, 16);
}

export function wirebenchVersion(): string {
  return JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version as string;
}

export function taskTreeHash(taskId: string): string {
  return treeHash([taskDir(taskId)]);
}

export function harnessHash(): string {
  const root = projectRoot();
  return treeHash([join(root, "scripts", "agent"), join(root, "scripts", "harness")]);
}
