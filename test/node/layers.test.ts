import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkLayers, type ImportEdge, LAYERS, layerOf, layerProblems, problemText, readImports } from "../../scripts/lint/layers.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("imports run one way through the layers", () => {
  let graph: { files: string[]; edges: ImportEdge[] };
  beforeAll(() => {
    graph = readImports(ROOT);
  });

  it("no file imports from a higher layer (type imports included), every file is in a layer, and no files import each other in a circle", () => {
    expect(layerProblems(graph).map(problemText)).toEqual([]);
  });

  it("reads the whole project, and every layer holds files", () => {
    expect(graph.files.length).toBeGreaterThan(500);
    expect(graph.edges.filter((e) => e.to).length).toBeGreaterThan(1500);
    const empty = LAYERS.filter((_, i) => !graph.files.some((f) => layerOf(f) === i)).map((l) => l.name);
    expect(empty).toEqual([]);
  });

  it("finds upward imports of every form, circles, unplaced files and imports of nothing, and lets tests import anything", () => {
    const root = mkdtempSync(join(tmpdir(), "wb-layers-"));
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    try {
      write("tsconfig.json", JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", allowImportingTsExtensions: true, noEmit: true, types: [] }, include: ["**/*.ts"] }));
      write("declarations/schema/vendor.ts", "export interface Vendor { id: string }\n");
      write("workers/env.ts", "export interface Env { A: string }\n");
      write("scripts/tool.ts", "export const tool = 1;\n");
      write("mechanics/type-only.ts", 'import type { Vendor } from "../declarations/schema/vendor.ts";\nexport type V = Vendor;\n');
      write("mechanics/import-type.ts", 'export type E = import("../workers/env.ts").Env;\n');
      write("mechanics/dynamic.ts", 'export async function load() {\n  return import("../scripts/tool.ts");\n}\n');
      write("mechanics/re-export.ts", 'export type { Vendor } from "../declarations/schema/vendor.ts";\nexport * from "../evidence/a.ts";\n');
      write("mechanics/words.ts", '// import { x } from "../workers/env.ts";\nexport const text = \'import { y } from "../scripts/tool.ts"\';\n');
      write("mechanics/missing.ts", 'import "./gone.ts";\n');
      write("mechanics/kinds.test.ts", 'import "../scripts/tool.ts";\nimport "../workers/env.ts";\n');
      write("evidence/a.ts", 'import type { B } from "./b.ts";\nexport type A = { b?: B };\n');
      write("evidence/b.ts", 'export type { A as B } from "./a.ts";\n');
      write("lib/stray.ts", "export const stray = 1;\n");
      expect(checkLayers(root).map(problemText)).toEqual([
        "lib/stray.ts is in no layer",
        "mechanics/dynamic.ts:2 (mechanics) imports scripts/tool.ts (scripts), a higher layer",
        "mechanics/import-type.ts:1 (mechanics) imports workers/env.ts (workers), a higher layer",
        'mechanics/missing.ts:1 imports "./gone.ts", which names no file',
        "mechanics/re-export.ts:1 (mechanics) imports declarations/schema/vendor.ts (schema), a higher layer",
        "mechanics/type-only.ts:1 (mechanics) imports declarations/schema/vendor.ts (schema), a higher layer",
        "circle of 2 files: evidence/a.ts, evidence/b.ts",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
