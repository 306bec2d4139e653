import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "gig-board-unsorted",
      mistake: "pages the gig board without `order_by=id`, so its pages overlap and skip gigs",
      patches: [{ file: "src/main.ts", find: 'extra: { order_by: "id" } }', replace: "extra: {} }" }],
    },
    {
      id: "timesheet-not-expanded",
      mistake: "reads assignments without the timesheet expansion, so minutes_worked never reaches the ledger",
      patches: [{ file: "src/main.ts", find: 'extra: { expand: "timesheet" } }', replace: "extra: {} }" }],
    },
    {
      id: "shifted-list-head-not-reread",
      mistake: "notices nothing when sign-ups are put in ahead of the offset mid-crawl: the records pushed past are read twice and the new ones at the head never",
      patches: [{ file: "src/main.ts", find: "  if (shifted === 0) return;\n", replace: "  return;\n" }],
    },
    {
      id: "server-error-fatal",
      mistake: "treats CrewCall's occasional 5xx on a list page as fatal instead of retrying the page",
      patches: [{ file: "src/crewcall.ts", find: "const BACKOFF_MS = [500, 1000, 2000];", replace: "const BACKOFF_MS: number[] = [];" }],
    },
    {
      id: "restarts-instead-of-resuming",
      mistake: "ignores the progress a stopped back-fill saved and starts again from the first worker",
      patches: [{ file: "src/main.ts", find: "const continuing = previous !== null && !previous.finished;", replace: "const continuing = false as boolean;" }],
    },
    {
      id: "resume-without-catch-up",
      mistake: "finishes a back-fill continued from a stopped run without reading what changed or appeared in CrewCall since it began",
      patches: [
        {
          file: "src/main.ts",
          find: "        for (const r of await client.all(l.path, { ...l.extra, changed_since: state.startedAt })) rows.set(String(r.id), toRow(r));\n",
          replace: "",
        },
      ],
    },
    {
      id: "resume-offset-ignores-deletions",
      mistake: "continues a stopped back-fill at the offset it had reached, although workers it had already read were deleted since and the rest of the list moved up: as many workers are skipped",
      patches: [{ file: "src/main.ts", find: "        if (!p.done && gone) p.offset = Math.max(0, p.offset - gone);\n", replace: "" }],
    },
    {
      id: "started-at-from-host-clock",
      mistake: "stamps the back-fill's start with the host's clock instead of CrewCall's, so the catch-up after a resume asks for changes since the wrong instant",
      patches: [
        { file: "src/main.ts", find: "if (state.startedAt === null) state.startedAt = client.firstServerTime;", replace: "if (state.startedAt === null) state.startedAt = new Date().toISOString();" },
      ],
    },
    {
      id: "mirror-keyed-by-numeric-id",
      mistake:
        "keys the in-memory mirror by CrewCall's numeric id while the rows a stopped run left on disk are keyed by their string source_id, so a resumed run writes a second row for every record it reads again",
      patches: [
        { file: "src/main.ts", find: "rows.has(String(r.id))", replace: "rows.has(r.id as string)", count: 2 },
        { file: "src/main.ts", find: "rows.set(String(r.id), toRow(r))", replace: "rows.set(r.id as string, toRow(r))", count: 3 },
      ],
    },
  ],
});
