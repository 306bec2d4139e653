import type { DocModel } from "../model.ts";

/** `changelog.md`, newest first. */
export function changelogPage(m: DocModel): string {
  return ["# Changelog", "", ...[...m.changelog].reverse().flatMap((c) => [`## ${c.version} (${c.date})`, "", c.text, ""])].join("\n");
}
