// biome-ignore-all lint/suspicious/noTemplateCurlyInString: patches are source text of the connector, template literals included
import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "dedupe-by-event-sequence",
      mistake: "treats every event numbered at or below the newest one handled as a replay, so changes delivered out of order are acknowledged and dropped",
      patches: [
        {
          file: "src/relay.ts",
          find: "    if (handled.has(event.id)) return reply(res, 200, { ack: event.id });",
          replace: '    const seq = (id: string) => Number(id.replace(/^evt_/, ""));\n    if ([...handled].some((h) => seq(h) >= seq(event.id))) return reply(res, 200, { ack: event.id });',
        },
      ],
    },
    {
      id: "crawl-count-unchecked",
      mistake: "crawls the interviews list once by offset and takes what it met, never checking it against `total_entries`, so interviews booked during the back-fill push others past the crawl",
      patches: [{ file: "src/interviewly.ts", find: "      if (byId.size >= total) return [...byId.values()];", replace: "      return [...byId.values()];" }],
    },
    {
      id: "dropped-connection-not-retried",
      mistake: "retries a 5xx but not a read whose connection drops mid-answer, so one cut-off page of scorecards ends the back-fill with nothing written",
      patches: [{ file: "src/interviewly.ts", find: "        if (attempt > 4) throw err;", replace: "        throw err;" }],
    },
    {
      id: "scorecard-feedback-not-requested",
      mistake: "back-fills scorecards without `include=comments`, so the panelists' written feedback never reaches the copy",
      patches: [{ file: "src/sync.ts", find: 'api.listAll("/v1/scorecards", { include: "comments" })', replace: 'api.listAll("/v1/scorecards")' }],
    },
    {
      id: "cancelled-interview-revived",
      mistake: "lets a created or updated event that arrives after the cancellation bring the cancelled interview back to life",
      patches: [{ file: "src/relay.ts", find: "  if (held?.is_deleted) return false;\n", replace: "" }],
    },
    {
      id: "stale-timestamp-accepted",
      mistake: "checks the signature but not how old Interviewly-Timestamp is, so a captured delivery replayed later is taken",
      patches: [{ file: "src/signature.ts", find: "  if (Math.abs(skew) > MAX_SKEW_S) return `Interviewly-Timestamp is ${skew} s away from now`;\n", replace: "" }],
    },
    {
      id: "bad-signature-only-logged",
      mistake: "logs a delivery whose signature does not verify but applies it anyway",
      patches: [{ file: "src/relay.ts", find: "      return reply(res, 401, { error: problem });", replace: "" }],
    },
    {
      id: "journal-restarted-on-start",
      mistake: "starts a fresh event journal every time the listener starts, wiping what the listener appended before a restart",
      patches: [{ file: "src/store.ts", find: '    if (!existsSync(path)) writeFileSync(path, "");', replace: '    writeFileSync(path, "");' }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "every fault the scenario arms is on webhook deliveries (out of order, duplicates, forgeries, a stale replay); Interviewly's API, which only the back-fill calls, is armed only with a page drift (interviews moved to the head of the list) and one scorecards page cut off mid-answer, so no 429 or 503 and no Retry-After ever reaches the connector (retry_after_honored is not recorded for gold)",
    "shared-no-wait":
      "the back-fill, the only caller of Interviewly's API, meets no error status and no throttling in this scenario (only a list that moves under it and one connection that drops mid-answer), so its only wait is the short pause before reading the cut-off page again, which an immediate retry survives just as well",
  },
});
