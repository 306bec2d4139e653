import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "renamed-email-passed-through",
      mistake: "passes TalentForge's renamed field through as it comes: candidates land in the mirror with data.email_address instead of the documented data.email",
      patches: [{ file: "src/store.ts", find: 'const RENAMED: Record<string, string> = { email_address: "email" };', replace: "const RENAMED: Record<string, string> = {};" }],
    },
    {
      id: "nightly-state-not-carried-over",
      mistake: "the cut-over does not carry over the nightly poll's watermarks and journal: it starts a state of its own, re-reads the whole book as a new baseline and logs nothing of the gap",
      patches: [
        { file: "src/store.ts", find: "marks[e] = w === null ? null : instant(w);", replace: "marks[e] = null;" },
        {
          file: "src/store.ts",
          find: "return { mirror, changes: legacy.journal, marks, events: [], cutoverAt: null };",
          replace: "return { mirror, changes: [], marks, events: [], cutoverAt: null };",
        },
      ],
    },
    {
      id: "catch-up-reads-everything",
      mistake: "the cut-over and the reconciliation read the whole book instead of only what changed since the previous poll",
      patches: [{ file: "src/main.ts", find: "mark === null ? {} : { modified_since: isoSeconds(mark) }", replace: "{}" }],
    },
    {
      id: "poll-mark-from-host-clock",
      mistake:
        "takes the poll watermark from the host clock when a poll finishes, not from the newest updated_at TalentForge served, so the reconciliation asks for changes after a time TalentForge has not reached",
      patches: [
        {
          file: "src/store.ts",
          find: "const newest = Math.max(...records.map((r) => instant(r.updated_at)), this.state.marks[entity] ?? Number.NEGATIVE_INFINITY);",
          replace: "const newest = Date.now();",
        },
      ],
    },
    {
      id: "same-version-logged-again",
      mistake: "journals every record a poll or an event brings, even when it is the version the mirror already holds (the at-or-after boundary rows, a rerun of the cut-over)",
      patches: [{ file: "src/store.ts", find: "if (a === b && have.is_deleted === next.is_deleted && sameData(have.data, next.data)) return false;", replace: "" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the cut-over scenario arms no rate-limit or maintenance fault (only the renamed field, a dropped event, a duplicate storm and revoked sessions) and TalentForge's quota of 600 a window is far above the run's reads: no 429 or 503, so no Retry-After to honour",
    "shared-no-wait":
      "no request in this scenario answers 429 or 5xx, so no backoff or rate-limit wait is ever taken; the waits left are the state lock's polling and the listener's shutdown drain, which only poll sooner",
  },
});
