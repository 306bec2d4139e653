/**
 * @module task-init/template
 * The files of a new task folder: the least that loads, typechecks and grades
 * (task.ts with one scenario's judge, drive.ts with its drive, a plumbing check and one mandatory mirror check, each resting on
 * a sentence of the ticket), for the author to grow from.
 */

/** Path (relative to the task folder) -> contents. */
export type TaskFiles = Record<string, string>;

/** The files of task `id` for one role of `vendor`. */
export function taskFiles(id: string, vendor: string): TaskFiles {
  const run = "`node src/main.ts sync` exits 0 and writes `candidates.json` under `OUTPUT_DIR`.";
  const mirror = "`candidates.json` holds every candidate, sorted by `source_id`.";
  return {
    "task.ts": `import { defineTask } from "../../schema/task.ts";
import { byLabel, compareRows, expectedRows, mirrorOutputs, outputRows, plumbing } from "../shared/judging.ts";

const ROLE = "ats";
const FILE = "candidates.json";
/** The snapshot entity the mirror copies, and the field holding its modification stamp. */
const ENTITY = "candidate";
const UPDATED = "updated_at";

export default defineTask({
  id: ${JSON.stringify(id)},
  title: "TODO: one line saying what the connector does",
  kind: "build",
  roles: { [ROLE]: { vendor: ${JSON.stringify(vendor)}, checkpoint: 0 } },
  seed: 1,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: ${JSON.stringify(`todo_${id.replace("-", "_")}`)},
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: mirrorOutputs([FILE]),
  timeLimitS: 30,
  scenarios: [
    {
      name: "initial_sync",
      judge: (e, c) => {
        const run = byLabel(e, "sync");
        if (!plumbing(c, "sync_exit_ok", run, [FILE], { ticket: ${JSON.stringify(run)} })) return;
        const cmp = compareRows(outputRows(run, FILE) ?? [], expectedRows(e.snapshots.end[ROLE], ENTITY, { updatedField: UPDATED }));
        c.check("mirror_matches", cmp.ok, { basis: { ticket: ${JSON.stringify(mirror)} }, pass: 2, mandatory: true, detail: cmp.detail });
      },
    },
  ],
});
`,
    "drive.ts": `import { defineDrives } from "../../schema/task.ts";
import task from "./task.ts";

/** How each scenario of ${id} is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  initial_sync: async (h) => {
    await h.run("sync", ["sync"]);
    await h.snapshot("end");
  },
});
`,
    "PROBLEM.md": `# TODO: the ticket's title

**From:** TODO · **Priority:** P2

TODO: what the business needs, in its own words. Every check's \`basis\` quotes a sentence of
this file verbatim; a mandatory check must.

## What to build

A connector in \`repo/\`: ${run}

## Output

${mirror} Each row:

\`\`\`json
{ "source_id": "cand_0001", "data": { "...": "..." }, "updated_at": "2025-01-01T00:00:00Z", "is_deleted": false }
\`\`\`
`,
    "repo/package.json": `${JSON.stringify({ name: id, private: true, type: "module", engines: { node: ">=22.12" } }, null, 2)}\n`,
    "repo/README.md": "# Connector\n\n`node src/main.ts sync` (see PROBLEM.md).\n",
    "repo/src/main.ts": `// The starter the agent gets: it must score 0 (wirebench validate's empty probe).\nconsole.error("not implemented");\nprocess.exit(1);\n`,
    "solutions/gold/src/main.ts": `// Gold: the reference solution, an overlay on repo/ (it must score 100 and be solved).\n// TODO: read every candidate from process.env.VENDOR_BASE_URL and write candidates.json under OUTPUT_DIR.\nconsole.error("gold not written yet");\nprocess.exit(1);\n`,
    "solutions/naive/src/main.ts": `// Naive: written faithfully from the task's own (lying) docs, an overlay on repo/ (at most 75, unsolved).\nconsole.error("naive not written yet");\nprocess.exit(1);\n`,
  };
}
