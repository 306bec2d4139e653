import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { buildDocsSet } from "../../workers/docs/docs-set.ts";
import { DOCS_PROFILES } from "../../declarations/schema/docs-profile.ts";
import { buildState } from "../../workers/engine/data/generate.ts";

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn" | string;
  message: string;
  location?: { source?: { ref?: string }; pointer?: string }[];
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

/** `redocly lint --format=json` prints one JSON report per file, back to back; splits and parses them. */
function parseReports(text: string): LintReport[] {
  const reports: LintReport[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") {
      if (depth++ === 0) start = i;
    } else if (ch === "}" && --depth === 0) reports.push(JSON.parse(text.slice(start, i + 1)) as LintReport);
  }
  return reports;
}

function describeProblem(p: LintProblem): string {
  const at = p.location?.[0];
  return `${at?.source?.ref ?? "?"} ${at?.pointer ?? ""}: [${p.ruleId}] ${p.message}`;
}

const dir = mkdtempSync(join(tmpdir(), "wb-openapi-lint-"));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("generated OpenAPI documents", () => {
  it("pass redocly lint (recommended rules) without errors for every vendor and profile", { timeout: 60_000 }, () => {
    const files: string[] = [];
    for (const vendor of Object.values(VENDORS)) {
      const examples = buildState(vendor, 1, 0);
      for (const profile of DOCS_PROFILES) {
        const set = buildDocsSet(vendor, profile, { baseUrl: "https://api.example.test", examples });
        const file = `${vendor.id}-${profile}.openapi.json`;
        writeFileSync(join(dir, file), `${JSON.stringify(set.openapi, null, 2)}\n`);
        files.push(file);
      }
    }
    expect(files).toHaveLength(Object.keys(VENDORS).length * DOCS_PROFILES.length);
    // A deliberately broken document in the same run proves that errors are reported and attributed.
    const canary = "zz-canary-unresolved-ref.openapi.json";
    writeFileSync(
      join(dir, canary),
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "canary", version: "1", license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } },
        servers: [{ url: "https://api.example.test" }],
        paths: {
          "/x": {
            get: {
              operationId: "x",
              summary: "x",
              responses: { "200": { description: "x", content: { "application/json": { schema: { $ref: "#/components/schemas/Missing" } } } }, "400": { description: "x" } },
            },
          },
        },
      }),
    );

    const cli = join(projectRoot(), "node_modules", "@redocly", "cli", "bin", "cli.js");
    const run = spawnSync(process.execPath, [cli, "lint", ...files, canary, "--format=json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.error).toBeUndefined();
    // 0: clean, 1: problems of severity error (the canary has one); anything else is a crash.
    expect([0, 1], run.stderr).toContain(run.status);
    const reports = parseReports(run.stdout);
    expect(reports, `one JSON report per file expected; stderr:\n${run.stderr}`).toHaveLength(files.length + 1);

    const problems = reports.flatMap((r) => r.problems);
    const errors = problems.filter((p) => p.severity === "error");
    const fromCanary = errors.filter((p) => p.location?.[0]?.source?.ref === canary);
    expect(fromCanary.map((p) => p.ruleId)).toContain("no-unresolved-refs");

    const real = errors.filter((p) => p.location?.[0]?.source?.ref !== canary);
    expect(real.map(describeProblem), `redocly lint errors:\n${real.map(describeProblem).join("\n")}`).toEqual([]);
    const warnings = problems.filter((p) => p.severity !== "error" && p.location?.[0]?.source?.ref !== canary);
    if (warnings.length) console.log(`redocly lint warnings (not failing):\n${warnings.map(describeProblem).join("\n")}`);
  });
});
