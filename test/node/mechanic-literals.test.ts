import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findMechanicLiterals, mechanicNames } from "../../scripts/lint/mechanic-literals.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("mechanic kinds are named only in their own modules", () => {
  it("no file outside a kind's module names a fault kind, lie kind, auth scheme, mint, paging, delete, signature or incremental style", () => {
    const found = findMechanicLiterals(ROOT);
    expect(found.map((f) => `${f.file}:${f.line} "${f.name}" ${f.text}`)).toEqual([]);
  });

  it("the registries list every family", () => {
    const families = new Set(mechanicNames().map((n) => n.family));
    expect([...families].sort()).toEqual(["auth", "deletes", "exports", "faults", "gateways", "incremental", "lies", "paging", "signatures", "time-formats", "uploads", "windows"]);
    expect(mechanicNames().length).toBeGreaterThan(40);
  });

  it("finds a switch on a kind, a comparison of a plain-word style and a distinctive name anywhere", () => {
    const root = mkdtempSync(join(tmpdir(), "wb-literals-"));
    try {
      mkdirSync(join(root, "workers", "engine"), { recursive: true });
      mkdirSync(join(root, "mechanics", "faults"), { recursive: true });
      writeFileSync(
        join(root, "workers", "engine", "bad.ts"),
        ['if (f.kind === "maintenance") wait();', "switch (p.style) {", '  case "cursor":', "}", 'const page = "page"; // a plain word, not a discriminator', 'log("stale-read");'].join("\n"),
      );
      writeFileSync(join(root, "mechanics", "faults", "maintenance.ts"), 'const schema = z.object({ kind: z.literal("maintenance") });\nif (f.kind === "maintenance") {}\n');
      const found = findMechanicLiterals(root).map((f) => `${f.file}:${f.line}:${f.name}`);
      expect(found).toEqual(["workers/engine/bad.ts:1:maintenance", "workers/engine/bad.ts:6:stale-read", "workers/engine/bad.ts:3:cursor"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
