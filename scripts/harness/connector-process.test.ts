import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConnector } from "./connector-process.ts";
import { z } from "zod";
import { jsonRows } from "../../declarations/schema/output-contract.ts";

describe("runConnector (plain processes, for trusted code)", () => {
  it("kills what the connector left running in its process group when it exits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wb-conn-"));
    mkdirSync(join(dir, "output"));
    const marker = join(dir, "left-behind");
    writeFileSync(join(dir, "main.mjs"), `import { spawn } from "node:child_process";\nspawn("sh", ["-c", "sleep 1; touch ${marker}"], { stdio: "ignore" }).unref();\n`);
    const run = await runConnector({
      label: "x",
      cwd: dir,
      command: ["node", "main.mjs"],
      args: [],
      env: { PATH: process.env.PATH ?? "" },
      timeoutMs: 10_000,
      outputs: { "rows.json": jsonRows(z.unknown()) },
      outputDir: join(dir, "output"),
    });
    expect(run.exitCode).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(existsSync(marker)).toBe(false);
  });
});
