import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "refused-delivery-acked-200",
      mistake: "drops a delivery that fails verification but answers it 200 (so TalentForge stops retrying) instead of refusing it with a 4xx",
      patches: [
        { file: "src/main.ts", find: 'return reply(res, problem.includes("signature") ? 401 : 400, { error: problem });', replace: "return reply(res, 200, { ok: false, ignored: problem });" },
      ],
    },
    {
      id: "no-timestamp-window",
      mistake: "checks the delivery's signature but not how old its timestamp is, so a replayed delivery from fifteen minutes ago is taken in",
      patches: [{ file: "src/signature.ts", find: "if (Math.abs(skew) > MAX_SKEW_S) return", replace: "if (Number.isNaN(skew)) return" }],
    },
    {
      id: "same-version-logged-again",
      mistake: "logs a change for every event or poll row taken in, even when the record read back is the version the mirror already holds",
      patches: [{ file: "src/store.ts", find: "if (a === b && have.is_deleted === next.is_deleted && sameData(have.data, next.data)) return false;", replace: "" }],
    },
    {
      id: "poll-mark-from-host-clock",
      mistake: "takes the sync's watermark from the host clock instead of the newest updated_at TalentForge served, so the next sync asks for changes after a time TalentForge has not reached",
      patches: [
        {
          file: "src/store.ts",
          find: "const newest = Math.max(...records.map((r) => instant(r.updated_at)), this.state.pollMarks[entity] ?? Number.NEGATIVE_INFINITY);",
          replace: "const newest = Date.now();",
        },
      ],
    },
    {
      id: "full-read-every-sync",
      mistake: "every sync reads the whole book again instead of only what changed since the previous sync",
      patches: [{ file: "src/main.ts", find: "baseline || mark === null ? {} : { modified_since: isoSeconds(mark) }", replace: "{}" }],
    },
    {
      id: "revoked-403-not-reauthed",
      mistake: "opens a new session only on 401: TalentForge's 403 token_revoked fails every later read, so the events after the revocation are never taken in",
      patches: [{ file: "src/talentforge.ts", find: "if ((r.status === 401 || r.status === 403) && reauth < MAX_REAUTH) {", replace: "if (r.status === 401 && reauth < MAX_REAUTH) {" }],
    },
  ],
});
