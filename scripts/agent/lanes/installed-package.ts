/**
 * @module installed-package
 * Finding an agent CLI's npm wrapper and its native platform package in this
 * project's node_modules, the way the wrapper's own launcher does.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export interface Wrapper {
  /** Path of the wrapper's package.json. */
  json: string;
  version: string;
  optionalDependencies: Record<string, string>;
}

/** The installed wrapper package, or why it is not there. */
export function installedWrapper(name: string): { ok: true; wrapper: Wrapper } | { ok: false; reason: string } {
  let json: string;
  try {
    json = createRequire(import.meta.url).resolve(`${name}/package.json`);
  } catch {
    return { ok: false, reason: `${name} is not installed (npm install)` };
  }
  const pkg = JSON.parse(readFileSync(json, "utf8")) as { version: string; optionalDependencies?: Record<string, string> };
  return { ok: true, wrapper: { json, version: pkg.version, optionalDependencies: pkg.optionalDependencies ?? {} } };
}

/** package.json of `pkg` as resolved from the wrapper's own folder, or null when it is not installed. */
export function besideWrapper(wrapper: Wrapper, pkg: string): string | null {
  try {
    return createRequire(wrapper.json).resolve(`${pkg}/package.json`);
  } catch {
    return null;
  }
}
