#!/usr/bin/env node
// Launcher: the CLI is TypeScript run by Node >= 22.12 with type stripping. When
// invoked by an older system Node, re-run it on the Node pinned in devDependencies.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const main = join(root, "scripts", "cli", "main.ts");
const [major, minor] = process.versions.node.split(".").map(Number);

if (major > 22 || (major === 22 && minor >= 12)) {
  await import(pathToFileURL(main).href);
} else {
  const pinned = join(root, "node_modules", "node", "bin", "node");
  if (!existsSync(pinned)) {
    console.error(`wirebench: needs Node >= 22.12 (this is ${process.version}); run npm ci to install the pinned Node`);
    process.exit(2);
  }
  const result = spawnSync(pinned, [main, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
