import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "documented-page-size-trusted",
      mistake: "asks for the documented 500 candidates a page and advances the offset by 500, though GlobalHire serves at most 200, so 300 candidates of every page are skipped",
      patches: [
        { file: "src/globalhire.ts", find: "export const PAGE_SIZE = 200;", replace: "export const PAGE_SIZE = 500;" },
        { file: "src/main.ts", find: 'import { GlobalHireClient, type Candidate } from "./globalhire.ts";', replace: 'import { GlobalHireClient, PAGE_SIZE, type Candidate } from "./globalhire.ts";' },
        { file: "src/main.ts", find: "const next = offset + page.items.length;", replace: "const next = offset + PAGE_SIZE;" },
      ],
    },
    {
      id: "first-5xx-stops-run",
      mistake: "treats any 5xx as an outage and stops the run at once, so an odd 500 on one page fails the whole back-fill",
      patches: [{ file: "src/globalhire.ts", find: "const MAX_SERVER_ERROR_ATTEMPTS = 4;", replace: "const MAX_SERVER_ERROR_ATTEMPTS = 1;" }],
    },
    {
      id: "backfill-always-restarts",
      mistake: "throws away the progress of a back-fill that stopped part-way and starts again from the first candidate",
      patches: [
        {
          file: "src/main.ts",
          find: "  let { nextOffset: offset, watermark } = progress.cursor();\n",
          replace: "  progress.clear();\n  let { nextOffset: offset, watermark } = progress.cursor();\n",
        },
      ],
    },
    {
      id: "catch-up-appends-rows",
      mistake: "the catch-up appends each changed candidate to the mirror instead of replacing its row, so an updated candidate appears twice",
      patches: [
        { file: "src/main.ts", find: "  for (const c of changed) {\n", replace: "  const appended = [...rows.values(), ...changed.map(toRow)];\n  for (const c of changed) {\n" },
        {
          file: "src/main.ts",
          find: "  writeMirror(config.outputDir, rows);\n  writeState(config.outputDir, { watermark });\n  console.error(`incremental:",
          replace: "  writeMirror(config.outputDir, new Map(appended.map((r, i) => [String(i), r])));\n  writeState(config.outputDir, { watermark });\n  console.error(`incremental:",
        },
      ],
    },
    {
      id: "watermark-from-host-clock",
      mistake: "records the host's clock as the watermark at the end of the back-fill instead of the newest updated_at GlobalHire served",
      patches: [
        {
          file: "src/main.ts",
          find: "  writeState(config.outputDir, { watermark });\n  progress.clear();\n",
          replace: "  writeState(config.outputDir, { watermark: new Date().toISOString() });\n  progress.clear();\n",
        },
      ],
    },
    {
      id: "deleted-field-misread",
      mistake: "reads deletions from a `deleted` field GlobalHire does not send (it marks deleted candidates `archived`), so no candidate is ever flagged is_deleted",
      patches: [{ file: "src/mirror.ts", find: "is_deleted: c.archived === true };", replace: "is_deleted: c.deleted === true };" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "gold falls back to X-RateLimit-Reset when Retry-After is missing; on the armed 429 window GlobalHire's reset header says 2 s (its quota's cooldown) and Retry-After at most 2 s, so the wait still covers what was asked",
  },
});
