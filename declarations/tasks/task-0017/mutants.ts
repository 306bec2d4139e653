import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "bad-signature-only-logged",
      mistake: "a delivery that fails verification is logged and then applied anyway, so a forged or replayed event reaches the hub",
      patches: [{ file: "src/listener.ts", find: "return reply(res, 401, { error: problem });", replace: "" }],
    },
    {
      id: "timestamp-tolerance-dropped",
      mistake: "checks the signature but not how old webhook-timestamp is, so a captured delivery replayed later is accepted",
      patches: [{ file: "src/signature.ts", find: "if (Math.abs(skew) > TOLERANCE_S) return", replace: "if (Math.abs(skew) < 0) return" }],
    },
    {
      id: "delete-events-ignored",
      mistake: "takes the changelog's word that deletes arrive as updates flagged `deleted: true`, so candidate.deleted and application.deleted events are ignored",
      patches: [{ file: "src/listener.ts", find: 'if (action === "deleted") mirror.remove(entity as Entity, String(event.data.id));\n  else if', replace: "if" }],
    },
    {
      id: "poll-ignores-vanished-records",
      mistake: "the poll only takes what the lists return: a record deleted while its event was lost stays live in the hub, since deleted records simply drop out of the lists",
      patches: [{ file: "src/poll.ts", find: "for (const id of vanished) await confirm(client, mirror, entity, id);", replace: "" }],
    },
    {
      id: "revoked-token-fatal",
      mistake: "treats a 401 on an API call as fatal instead of minting a fresh token once, so a revoked token stops the poll part-way",
      patches: [{ file: "src/talentloop-client.ts", find: "if (res.status === 401 && !renewed) {", replace: "if (res.status === 401 && renewed) {" }],
    },
    {
      id: "lost-answer-resent-blind",
      mistake: "when a note's POST answer is lost, sends the note again without first reading back whether the first one landed",
      patches: [{ file: "src/push.ts", find: "unsure = true;\n      continue;", replace: "continue;" }],
    },
    {
      id: "rerun-resends-delivered",
      mistake: "keeps no record of what earlier runs delivered: every rerun of push sends the whole queue again",
      patches: [{ file: "src/push.ts", find: 'if (prior && prior.status !== "sending") continue;', replace: "" }],
    },
    {
      id: "note-404-reported-missing",
      mistake: "reports every 404 on a note as candidate_missing without reading the candidate, so a deleted candidate is neither reported deleted nor marked deleted in the hub",
      patches: [
        {
          file: "src/push.ts",
          find: "if (answer.status === 404) return absentCandidate(client, mirror, f, answer);",
          replace: 'if (answer.status === 404) return { ...base, status: "candidate_missing", note_id: null, detail: message(answer.body) };',
        },
      ],
    },
    {
      id: "lists-first-page-only",
      mistake: "reads only the first page of each list and never follows next_cursor",
      patches: [{ file: "src/talentloop-client.ts", find: "if (!page.next_cursor || page.data.length === 0) return records;", replace: "return records;" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no scenario sends a 429 (the runs stay under TalentLoop's 300-request quota and no rate fault is armed), and the one 500 succeeds on its first retry, so no Retry-After is ever waited for (the generator's patch of `res?.headers.get(...)` leaves `res?.(null)`, a crash, not this mistake)",
    "shared-no-wait":
      "the only failures in the scenarios are one 500 on a list page (times: 1) and a revoked token, both cured by the very next request, and no 429 is sent: no wait gold makes changes an outcome",
  },
});
