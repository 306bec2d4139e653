import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "redelivery-applied-twice",
      mistake: "keeps no record of event ids already processed, so a redelivered event is applied and entered in the ledger a second time",
      patches: [{ file: "src/main.ts", find: '      if (store.hasProcessed(id)) return "duplicate";\n', replace: "" }],
    },
    {
      id: "application-events-ignored",
      mistake: "the listener applies candidate events only: application events are acknowledged and entered in the ledger but never reach the mirror",
      patches: [{ file: "src/main.ts", find: "if ((ENTITIES as string[]).includes(entity)) {", replace: 'if (entity === "candidate") {' }],
    },
    {
      id: "deleted-record-revived",
      mistake: "lets an update delivered after a delete bring the deleted record back to life",
      patches: [{ file: "src/store.ts", find: "    if (have?.is_deleted) return false;\n    if (have && time(", replace: "    if (have && time(" }],
    },
    {
      id: "unmatched-signature-passes",
      mistake: "falls through the signature loop to success: a delivery whose webhook-signature entries all fail to match is accepted",
      patches: [{ file: "src/signature.ts", find: '  return "no v1 signature matches";\n', replace: "  return null;\n" }],
    },
    {
      id: "timestamp-tolerance-a-day",
      mistake: "allows a day of webhook-timestamp skew instead of minutes, so a stale replayed delivery is applied",
      patches: [{ file: "src/signature.ts", find: "export const MAX_SKEW_S = 300;", replace: "export const MAX_SKEW_S = 86_400;" }],
    },
    {
      id: "gone-read-ignored",
      mistake: "reconcile reads a record that vanished from the lists but only applies a 200, so a 410 Gone leaves the deleted record live in the mirror",
      patches: [{ file: "src/main.ts", find: "      if (status === 410 || status === 404) store.remove(entity, id);\n      else if (status === 200)", replace: "      if (status === 200)" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "task-0007's worlds send no 429 (gold's runs stay under TalentLoop's 300-request window and no rate-limit fault is armed) and the one armed 500 carries no Retry-After, so the backoff gold takes is the same",
    "shared-no-wait":
      "the only error either scenario arms is one 500 on the second candidate page, answered once: retried at once it is served, exactly as after gold's backoff, and no 429 is ever sent",
  },
});
