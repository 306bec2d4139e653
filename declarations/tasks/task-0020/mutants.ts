import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "ack-field-from-docs",
      mistake:
        "confirms deliveries with the body the published docs describe (`event_id`), not the `acknowledged` field the API reads after the switch, so confirmed events are redelivered and dead-lettered",
      patches: [{ file: "src/main.ts", find: "return { acknowledged: eventId, event_id: eventId };", replace: "return { event_id: eventId };" }],
    },
    {
      id: "duplicate-ack-without-body",
      mistake: "answers a delivery it already took in with a bare 200 and no acknowledgement body, so after the switch TalentLoop counts every duplicate as unconfirmed",
      patches: [
        {
          file: "src/main.ts",
          find: "reply(res, 200, { ...ackBody(event.id), outcome });",
          replace: 'reply(res, 200, outcome === "duplicate" ? { ok: true } : { ...ackBody(event.id), outcome });',
        },
      ],
    },
    {
      id: "bad-signature-only-logged",
      mistake: "a delivery that fails verification is logged and then applied and acknowledged anyway, so a forged or replayed event reaches the mirror",
      patches: [{ file: "src/main.ts", find: 'return reply(res, problem.includes("timestamp") ? 400 : 401, { error: problem });', replace: "" }],
    },
    {
      id: "timestamp-tolerance-dropped",
      mistake: "checks the signature but not how old webhook-timestamp is, so a captured delivery replayed later is accepted",
      patches: [{ file: "src/signature.ts", find: "if (Math.abs(skew) > MAX_SKEW_S) return", replace: "if (Math.abs(skew) < 0) return" }],
    },
    {
      id: "event-id-not-deduplicated",
      mistake: "applies and records every delivery it receives without checking the event id, so a redelivered or re-drained event is counted twice in the ledger",
      patches: [{ file: "src/main.ts", find: 'if (store.hasProcessed(event.id)) return "duplicate";', replace: "" }],
    },
    {
      id: "late-event-overwrites-newer",
      mistake: "applies an event's record whatever its updated_at, so a dead letter drained after newer deliveries takes the record back in time",
      patches: [{ file: "src/store.ts", find: "if (have && time(record.updated_at) <= time(have.updated_at)) return false;", replace: "" }],
    },
    {
      id: "ledger-only-changes",
      mistake: "records an event in the ledger only when it changed the mirror, so a dead letter superseded by newer live deliveries (or any event that changed nothing) is missing from the ledger",
      patches: [
        {
          file: "src/main.ts",
          find: 'if (action === "deleted") store.remove(entity as Entity, String(event.data.id));\n    else store.upsert(entity as Entity, event.data);',
          replace: 'const changed = action === "deleted" ? store.remove(entity as Entity, String(event.data.id)) : store.upsert(entity as Entity, event.data);\n    if (!changed) return "duplicate";',
        },
      ],
    },
    {
      id: "lists-first-page-only",
      mistake: "the backfill reads only the first page of each list and never follows next_cursor",
      patches: [{ file: "src/talentloop-client.ts", find: "cursor = page.data.length ? page.next_cursor : null;", replace: "cursor = null;" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "the scenarios arm only webhook faults (duplicates, a reversed burst, a forged and a stale delivery) and the API runs stay far under TalentLoop's 300-request quota: no 429 or 5xx is ever answered, so there is no Retry-After to read",
    "shared-no-wait":
      "no API request fails in these scenarios (only webhook faults are armed, and the runs stay under the quota), so gold's backoffs never run; the listener's 20 ms shutdown poll only waits for deliveries already in flight, which it still does at 0 ms",
  },
});
