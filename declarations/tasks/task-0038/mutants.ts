import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "new-worker-by-id-high-water",
      mistake: "takes a worker as new only when their number is above the highest number in the copy, so a renumbered roster (new numbers below the old) never arrives",
      patches: [
        {
          file: "src/main.ts",
          find: "    if (row && !differs(row, next)) continue;\n",
          replace: "    if (row && !differs(row, next)) continue;\n    if (!row && Number(id) <= Math.max(0, ...[...copy.keys()].map(Number))) continue;\n",
        },
      ],
    },
    {
      id: "deletions-feed-not-read",
      mistake: "never reads the deletions feed, so workers CrewCall deleted (the retired numbers included) stay active in the copy",
      patches: [
        { file: "src/main.ts", find: "for (const d of await client.changedSince(DELETIONS, start)) {", replace: "for (const d of [] as { id: string; object: string; deleted_at: string }[]) {" },
      ],
    },
    {
      id: "deleted-worker-dropped",
      mistake: "drops a deleted worker from the copy instead of keeping them with is_deleted true",
      patches: [{ file: "src/main.ts", find: "      row.is_deleted = true;\n", replace: "      copy.delete(row.source_id);\n" }],
    },
    {
      id: "short-page-taken-as-last",
      mistake: "asks for 500 workers a page and stops at the first page shorter than that, but CrewCall quietly cuts pages to 200",
      patches: [
        { file: "src/crewcall.ts", find: "const PAGE_SIZE = 200;", replace: "const PAGE_SIZE = 500;" },
        {
          file: "src/crewcall.ts",
          find: "      if (records.length === 0) return out;\n      out.push(...records);\n",
          replace: "      out.push(...records);\n      if (records.length < PAGE_SIZE) return out;\n",
          count: 2,
        },
      ],
    },
    {
      id: "first-run-as-silent-baseline",
      mistake: "treats the first run as a silent baseline: it copies the roster but reports no workers added",
      patches: [{ file: "src/main.ts", find: '      changes.push({ source_id: String(w.id), change: "added" });\n', replace: "" }],
    },
    {
      id: "full-roster-safety-net",
      mistake: "reads the changes, then lists the whole roster again every night as a safety net, though each later run must read only what changed",
      patches: [
        {
          file: "src/main.ts",
          find: "for (const w of await client.changedSince(WORKERS, start)) {",
          replace: "for (const w of [...(await client.changedSince(WORKERS, start)), ...(await client.all(WORKERS))]) {",
        },
      ],
    },
    {
      id: "watermark-from-newest-updated-at",
      mistake: "keeps the newest updated_at in the copy as the watermark, so after the re-import (one instant for every worker) the inclusive change filter hands back the whole roster every night",
      patches: [
        {
          file: "src/main.ts",
          find: "writeAll(config.outputDir, copy, changes, { since });",
          replace:
            'writeAll(config.outputDir, copy, changes, { since: [...copy.values()].map((r) => r.updated_at).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a), "1970-01-01T00:00:00Z") });',
          count: 2,
        },
      ],
    },
    {
      id: "change-filter-from-the-beginning",
      mistake: "asks the change filter for everything since 1970 on every later run, so the filter never narrows the read",
      patches: [{ file: "src/main.ts", find: 'const start = state.since ?? "1970-01-01T00:00:00Z";', replace: 'const start = "1970-01-01T00:00:00Z";' }],
    },
    {
      id: "every-deletion-reported-again",
      mistake: "reads the whole deletions feed every night and reports each deleted worker as removed again, though most were removed on an earlier night",
      patches: [
        { file: "src/main.ts", find: "for (const d of await client.changedSince(DELETIONS, start)) {", replace: 'for (const d of await client.changedSince(DELETIONS, "1970-01-01T00:00:00Z")) {' },
        { file: "src/main.ts", find: "    if (row && !row.is_deleted) {\n", replace: "    if (row) {\n" },
      ],
    },
  ],
});
