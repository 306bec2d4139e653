import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { WORKER_TYPES, wranglerTypes } from "../../scripts/farm/worker-types.ts";

const ROOT = projectRoot();

describe("each Worker's generated bindings", () => {
  it.each(WORKER_TYPES.map((t) => [t.worker, t] as const))("the %s's worker-configuration.d.ts is what `wrangler types` makes of the configs now", (_, types) => {
    const { current, output } = wranglerTypes(ROOT, types, true);
    expect(current, output).toBe(true);
  });

  it("a binding added to a config makes the committed file out of date; a .dev.vars in the checkout does not", () => {
    const root = mkdtempSync(join(tmpdir(), "wb-worker-types-"));
    try {
      for (const file of ["wrangler.toml", "workers/grader/wrangler.toml", "workers/index.ts", "workers/grader/index.ts", ...WORKER_TYPES.map((t) => t.file)]) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        cpSync(join(ROOT, file), join(root, file));
      }
      const farm = WORKER_TYPES.find((t) => t.worker === "farm")!;
      writeFileSync(join(root, ".dev.vars"), "LOCAL_SECRET=x\n");
      expect(wranglerTypes(root, farm, true).current).toBe(true);
      writeFileSync(join(root, "wrangler.toml"), `${readFileSync(join(root, "wrangler.toml"), "utf8")}\n[[kv_namespaces]]\nbinding = "NEW_CACHE"\nid = "0"\n`);
      expect(wranglerTypes(root, farm, true).current).toBe(false);
      expect(wranglerTypes(root, farm, false).current).toBe(true);
      expect(readFileSync(join(root, farm.file), "utf8")).toContain("NEW_CACHE?: KVNamespace;");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
