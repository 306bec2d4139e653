import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "docs-since-param-believed",
      mistake: "filters the hourly job read with the documented `updated_after`, which TalentLoop ignores (with a Warning), so every poll reads every job again",
      patches: [{ file: "src/main.ts", find: 'const SINCE_PARAM = "modified_since";', replace: 'const SINCE_PARAM = "updated_after";' }],
    },
    {
      id: "watermark-from-host-clock",
      mistake:
        "takes the jobs watermark from the host clock when a record is taken in, not from TalentLoop's updated_at, so the next poll asks for changes after a moment TalentLoop's clock has not reached",
      patches: [
        {
          file: "src/view.ts",
          find: "this.state.polls[entity].watermark = later(this.state.polls[entity].watermark, stamp);",
          replace: "this.state.polls[entity].watermark = new Date().toISOString();",
        },
      ],
    },
    {
      id: "candidate-removal-keeps-notes",
      mistake: "removing a candidate leaves their notes live in the view",
      patches: [{ file: "src/view.ts", find: 'if (entity === "candidate") {\n      for (const note of this.rows("note")) {', replace: "{\n      for (const note of [] as Row[]) {" }],
    },
    {
      id: "missing-notes-list-skipped",
      mistake: "skips a candidate whose notes list answers 404 instead of reading the candidate, so a candidate whose delete event never came stays live after the poll",
      patches: [{ file: "src/main.ts", find: "if (rows === null) {", replace: "if (rows === null) continue;\n    if (rows === null) {" }],
    },
    {
      id: "source-by-entity-type",
      mistake: "labels each row's source by how its entity is kept fresh (candidates and applications always `webhook`), not by how the view learned that record's state",
      patches: [
        {
          file: "src/view.ts",
          find: "is_deleted: false, source, synced_at: new Date().toISOString() };",
          replace: "is_deleted: false, source: SOURCE[entity], synced_at: new Date().toISOString() };",
        },
      ],
    },
    {
      id: "notes-read-counted-changed",
      mistake: "counts every note the poll read as changed, since notes have no filter and are read in full, so changed_last_poll reports the whole tenant's notes every hour",
      patches: [
        {
          file: "src/main.ts",
          find: 'for (const note of rows) if (view.upsert("note", note, "poll")) changedNotes += 1;',
          replace: 'for (const note of rows) {\n      view.upsert("note", note, "poll");\n      changedNotes += 1;\n    }',
        },
      ],
    },
    {
      id: "lists-first-page-only",
      mistake: "reads only the first page of each list and never follows next_cursor",
      patches: [{ file: "src/client.ts", find: "cursor = rows.length && page.next_cursor ? page.next_cursor : null;", replace: "cursor = null;" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no scenario sends a 429 (the runs stay under TalentLoop's 300-request quota) and the only failure, tl-jobs-503-first-page, answers 503 exactly twice whatever the client waits, so gold's fallback backoff reaches the same third answer",
    "shared-no-wait": "the only failure in the scenarios is tl-jobs-503-first-page, two 503s counted by request, not by time, and no 429 is sent: retrying at once reaches the same answer",
  },
});
