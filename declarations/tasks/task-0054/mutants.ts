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
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "gold reads a worker's notes list only where the embedded notes are cut, so the night stays below the shared quota's 140 requests and Rosterly never answers 429 or 503: there is no Retry-After to honour",
    "shared-no-wait": "no request of gold's night fails (no 429, no 5xx: the scenario's only fault is the shared quota, which gold never reaches), so no wait is ever taken",
  },
});
