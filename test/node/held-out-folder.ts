/**
 * A folder of held-out tasks for tests: a public task copied under a new id,
 * its wirebench imports rewritten to `#wirebench/...` as a held-out task
 * writes them, and its id changed wherever the task names itself.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { taskDir } from "../../scripts/harness/workspace.ts";

/** The import paths of a public task's own files, as a held-out one writes them. */
function heldOutImports(text: string): string {
  return text.replaceAll('from "../../../', 'from "#wirebench/').replaceAll('from "../../', 'from "#wirebench/declarations/').replaceAll('from "../', 'from "#wirebench/declarations/tasks/');
}

/** Makes `<folder>/<id>` from the public task `from`; returns the folder of task folders. */
export function heldOutFolder(from: string, id: string, folder = mkdtempSync(join(tmpdir(), "wb-held-out-"))): string {
  const dir = join(folder, id);
  cpSync(taskDir(from), dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".ts")) writeFileSync(join(dir, name), heldOutImports(readFileSync(join(dir, name), "utf8")).replaceAll(`"${from}"`, `"${id}"`));
  }
  const manifest = join(dir, "gold-manifest.json");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replaceAll(`"${from}"`, `"${id}"`));
  return folder;
}
