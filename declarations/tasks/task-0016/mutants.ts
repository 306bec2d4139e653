import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "cached-read-trusted",
      mistake: "reads placements without revalidating, so GlobalHire's edge serves cached copies and a later row of the queue is decided on a state the job itself already changed",
      patches: [{ file: "src/globalhire.ts", find: '"cache-control": "no-cache",', replace: "" }],
    },
    {
      id: "conflict-overwritten",
      mistake: "writes to_state whenever the placement is not already there, overwriting a state someone changed since the audit instead of reporting a conflict",
      patches: [{ file: "src/main.ts", find: 'else if (state !== r.from_state) report.set(r.repair_id, row(r, "conflict", null, r.placement_id!));', replace: "" }],
    },
    {
      id: "archived-placement-restated",
      mistake: "believes the docs that deleted placements answer 410: an archived placement (200 with archived true) is restated instead of rejected",
      patches: [{ file: "src/main.ts", find: " || (got.status === 200 && got.body.archived === true)", replace: "" }],
    },
    {
      id: "archived-candidate-booked",
      mistake: "only rejects candidates that answer 404 or 410: an archived candidate (200 with archived true) is booked",
      patches: [{ file: "src/main.ts", find: 'c = got.body.archived === true ? "archived" : "live";', replace: 'c = "live";' }],
    },
    {
      id: "batch-413-not-split",
      mistake: "sends rebooks in batches of the documented 50 and gives up on a 413 instead of splitting the batch, so none of the lost placements are booked",
      patches: [{ file: "src/main.ts", find: "if (sent.status === 413 && chunk.length > 1) {", replace: "if (sent.status === 413 && chunk.length > DOCUMENTED_BATCH) {" }],
    },
    {
      id: "queue-duplicates-booked-twice",
      mistake: "books every rebook row it has no existing booking for, so two rows of the queue for the same candidate and client book two placements",
      patches: [{ file: "src/main.ts", find: "if (first) sameAs.set(r.repair_id, first);\n      else toBook.push(r);", replace: "toBook.push(r);" }],
    },
    {
      id: "archived-booking-counted",
      mistake: "counts every placement GlobalHire lists as a booking, archived ones too, so a rebook whose only placement for that client was archived is reported already applied and never booked",
      patches: [{ file: "src/main.ts", find: "if (p.archived !== true && !booked.has(", replace: "if (!booked.has(" }],
    },
    {
      id: "placements-default-page-only",
      mistake: "reads the placements list once at its default page size (100), so the bookings past the first page are not seen and a rerun books them again",
      patches: [
        { file: "src/globalhire.ts", find: "?limit=200&offset=", replace: "?offset=" },
        { file: "src/globalhire.ts", find: "if (!items.length || offset >= Number(page.body.total_count)) return out;", replace: "return out;" },
      ],
    },
    {
      id: "batch-failed-rows-taken-as-done",
      mistake: "reports every row of a 207 as applied without reading its status, so a booking GlobalHire turned down is reported as made",
      patches: [
        {
          file: "src/main.ts",
          find: 'result.status === 201 ? row(r, "applied", null, String(result.id)) : row(r, "rejected", "refused", null)',
          replace: 'row(r, "applied", null, String(result.id))',
        },
      ],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenario arms no 429 fault and a run and its rerun stay under GlobalHire's 150-request quota, so no Retry-After is ever sent (and gold's fallback wait, 2 s, is the only value GlobalHire sends anyway)",
    "shared-no-wait": "the scenario arms no 429 and no 5xx (only stale reads and the 413 cap) and the runs stay under the 150-request quota, so gold never waits: there is no wait to drop",
  },
});
