/**
 * @module task-init/init
 * `wirebench task init <id>`: a new task folder from the template. It never
 * writes over anything: an id whose folder exists is a usage error (exit 2).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { projectRoot } from "../../farm/paths.ts";
import { UsageError } from "../errors.ts";
import { taskFiles } from "./template.ts";

export interface TaskInitOptions {
  /** Folder the task folders live in (default: the project's declarations/tasks). */
  root?: string;
  /** Vendor of the task's one role (default: staffline). */
  vendor?: string;
}

/** Creates `<root>/<id>/` and returns the files written (relative to it). */
export function taskInit(id: string, opts: TaskInitOptions = {}): string[] {
  if (!/^task-\d{4}$/.test(id)) throw new UsageError(`a task id is task-NNNN, got "${id}"`);
  const dir = join(opts.root ?? join(projectRoot(), "declarations", "tasks"), id);
  if (existsSync(dir)) throw new UsageError(`${id} exists already (${dir}); pick a new id`);
  const files = taskFiles(id, opts.vendor ?? "staffline");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text, { flag: "wx" });
  }
  return Object.keys(files);
}
