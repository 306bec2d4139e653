import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "bad-signature-only-logged",
      mistake: "a delivery that fails verification is logged and then applied anyway, so a forged or replayed event reaches the warehouse",
      patches: [{ file: "src/listener.ts", find: "return reply(res, 401, { error: problem });", replace: "" }],
    },
    {
      id: "timestamp-tolerance-dropped",
      mistake: "checks the signature but not how old webhook-timestamp is, so a captured delivery replayed later is accepted",
      patches: [{ file: "src/signature.ts", find: "if (Math.abs(skew) > MAX_SKEW_S) return", replace: "if (Math.abs(skew) < 0) return" }],
    },
    {
      id: "delete-events-ignored",
      mistake: "believes the documentation that deleted records stay in the API flagged `deleted`, so candidate.deleted and application.deleted events are ignored",
      patches: [{ file: "src/listener.ts", find: 'if (action === "deleted") return warehouse.remove(entity as Entity, String(event.data.id));', replace: "" }],
    },
    {
      id: "reconcile-ignores-vanished",
      mistake:
        "the reconcile only takes what the lists return: a record deleted while its event was lost (or while the listener was down) stays live, since deleted records drop out of the lists without a flag",
      patches: [{ file: "src/sync.ts", find: "if (row.is_deleted || listed.has(id)) continue;", replace: "continue;" }],
    },
    {
      id: "vanished-removed-unconfirmed",
      mistake: "marks every record missing from one listing removed without reading it by id for TalentLoop's confirmation",
      patches: [
        {
          file: "src/sync.ts",
          find: "if (row.is_deleted || listed.has(id)) continue;",
          replace: "if (row.is_deleted || listed.has(id)) continue;\n      confirmed += warehouse.remove(entity, id) ? 1 : 0;\n      continue;",
        },
      ],
    },
    {
      id: "erasure-ids-taken-as-typed",
      mistake: "looks up the privacy team's hand-copied candidate ids exactly as typed (stray spaces, upper case), so TalentLoop does not know them",
      patches: [{ file: "src/erasures.ts", find: 'candidate_id: cell("candidate_id").trim().toLowerCase()', replace: 'candidate_id: cell("candidate_id")' }],
    },
    {
      id: "erasure-404-counted-erased",
      mistake: "reads any 404 or 410 on the candidate as erased, so an id TalentLoop never had is reported erased instead of unknown_candidate",
      patches: [{ file: "src/erasures.ts", find: 'status === 410 ? "erased"', replace: 'status === 410 || status === 404 ? "erased"' }],
    },
    {
      id: "removed-row-keeps-data",
      mistake: "marks a removed record is_deleted but keeps its last data, names and emails included",
      patches: [{ file: "src/warehouse.ts", find: "data: {}, updated_at: have?.updated_at", replace: "data: have?.data ?? {}, updated_at: have?.updated_at" }],
    },
    {
      id: "lists-first-page-only",
      mistake: "reads only the first page of each list and never follows next_cursor, so the warehouse is short",
      patches: [{ file: "src/talentloop-client.ts", find: "if (!page.next_cursor || page.data.length === 0) return rows;", replace: "return rows;" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no scenario sends a 429 (the runs stay under TalentLoop's 300-request quota and no rate fault is armed) and the one 500 (tl-candidates-500-page-2, times 1) carries no Retry-After that matters: its first retry succeeds",
    "shared-no-wait":
      "the only failure in the scenarios is one 500 on the second candidates page (times: 1), cured by the very next request, and no 429 is sent: no wait gold makes changes an outcome",
  },
});
