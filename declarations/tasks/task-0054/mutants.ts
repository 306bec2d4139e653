// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

const MAIN = "src/main.ts";
const CLIENT = "src/rosterly.ts";

export default defineMutants({
  mutants: [
    {
      id: "stamps-read-as-utc",
      mistake: "believes the old comment that Rosterly's stamps are UTC: the organisation's London wall-clock times are copied as if they were UTC",
      patches: [{ file: "src/notes.ts", find: 'const ORG_ZONE = "Europe/London";', replace: 'const ORG_ZONE = "UTC";' }],
    },
    {
      id: "truncated-embed-trusted",
      mistake: "copies the notes embedded in the worker record even when Rosterly marks the embed as truncated, so long files come up short",
      patches: [{ file: MAIN, find: "if (worker.notes_truncated === false && Array.isArray(embedded))", replace: "if (Array.isArray(embedded))" }],
    },
    {
      id: "notes-list-for-every-worker",
      mistake: "reads every worker's notes list even when the embedded notes are the whole file, spending the quota the payroll bureau shares",
      patches: [{ file: MAIN, find: "if (worker.notes_truncated === false && Array.isArray(embedded))", replace: "if (embedded === worker)" }],
    },
    {
      id: "page-two-never-read",
      mistake: "reads only the first page of a list: next_offset is never followed, so a staff list or a notes file longer than a page is cut",
      patches: [{ file: CLIENT, find: "offset = page.next_offset;", replace: "offset = null;" }],
    },
    {
      id: "staff-list-drift-unchecked",
      mistake: "pages the staff list by offset and trusts the pages: staff files added while it is read shift the offsets, so some workers are read twice and others, with their notes, never",
      patches: [{ file: CLIENT, find: "if (rows === total && byId.size === total) return [...byId.values()];", replace: "return [...byId.values()];" }],
    },
    {
      id: "cut-answer-ends-night",
      mistake: "retries refusals and server errors but not an answer whose connection dropped part-way through the body: one cut notes list ends the night with nothing written",
      patches: [{ file: CLIENT, find: "const page = await res.json().catch(() => null);", replace: "const page = await res.json();" }],
    },
    {
      id: "throttled-page-read-as-empty",
      mistake: "reads a notes page Rosterly throttled (429) as an empty file and goes on, the pilot's own bug: that worker's notes are left out of a night that reports success",
      patches: [
        {
          file: CLIENT,
          find: "      if (res.status === 429) {\n        await sleep(waitMs(res, attempt));\n        continue;\n      }",
          replace: "      if (res.status === 429) return { items: [], total: 0, next_offset: null };",
        },
      ],
    },
    {
      id: "deleted-notes-copied",
      mistake: "copies every note the lists serve, the ones HR deleted (still listed with deleted true) included",
      patches: [{ file: MAIN, find: "      if (note.deleted === true) continue;\n", replace: "" }],
    },
    {
      id: "repeated-hour-stamp-refused",
      mistake: "refuses a stamp from the hour the clock shows twice on the night the clocks go back, so every night fails on a note written then instead of copying it at one of its two moments",
      patches: [
        {
          file: "src/time.ts",
          find: "if (!candidates.length) throw new Error(`${stamp} does not exist on the ${zone} clock`);",
          replace: "if (candidates.length !== 1) throw new Error(`${stamp} is not one moment on the ${zone} clock`);",
        },
      ],
    },
  ],
});
