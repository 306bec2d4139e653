import { defineMutants } from "../shared/mutant.ts";

/** The retry's Idempotency-Key in gold's push.ts (built so the text holds no template placeholder of this file). */
const RETRY_KEY = '      answer = await api.call("PATCH", `/v1/interviews/$' + '{encodeURIComponent(id)}`, { starts_at: startsAt }, { "idempotency-key": `reschedule-$' + "{line.ref}` });";

/** The first reschedule call's Idempotency-Key in gold's push.ts (same construction). */
const FIRST_KEY = '    let answer = await api.call("PATCH", `/v1/interviews/$' + '{encodeURIComponent(id)}`, { starts_at: startsAt }, { "idempotency-key": `reschedule-$' + "{line.ref}` });";
/** How gold's push settles a waiting move from the listener's record. */
const SETTLE =
  '      if (c?.refused) Object.assign(m, { status: "rejected", error: c.refused.message });\n      else if (c) Object.assign(m, { status: "committed", confirmation_event_id: c.event_id });';

/** The catch of gold's client around a call with a body (a write): the resend of an answer that broke off. */
const CALL_CATCH =
  "          body: body === undefined ? undefined : JSON.stringify(body),\n        });\n        text = await res.text();\n      } catch (err) {\n        if (!brokenAnswer(err) || attempt > 4) throw err;";

export default defineMutants({
  mutants: [
    {
      id: "broken-answer-not-retried",
      mistake:
        "retries a 5xx under the move's Idempotency-Key but never an answer that broke off part-way: the reschedule whose 202 an edge proxy cut off stops the run with a network error, the move queued and unreported",
      patches: [{ file: "src/interviewly.ts", find: "function brokenAnswer(err: unknown): boolean {", replace: "function brokenAnswer(err: unknown): boolean {\n  if (err) return false;" }],
    },
    {
      id: "broken-write-answer-reported-rejected",
      mistake:
        "resends a read whose answer broke off but never a write (it may have taken effect), and reports the move whose 202 broke off rejected with the network error, though Interviewly had queued it and moves the interview",
      patches: [
        { file: "src/interviewly.ts", find: CALL_CATCH, replace: CALL_CATCH.replace("if (!brokenAnswer(err) ||", 'if (!brokenAnswer(err) || method !== "GET" ||') },
        {
          file: "src/push.ts",
          find: FIRST_KEY,
          replace:
            "    let answer: Awaited<ReturnType<typeof api.call>>;\n    try {\n  " +
            FIRST_KEY.replace("let answer = ", "answer = ") +
            "\n    } catch (err) {\n      move.error = err instanceof Error ? err.message : String(err);\n      save();\n      continue;\n    }",
        },
      ],
    },
    {
      id: "broken-waiting-read-not-retried",
      mistake: "resends a write whose answer broke off under its Idempotency-Key, but lets a read that broke off while the moves wait for their confirmations stop the run",
      patches: [{ file: "src/interviewly.ts", find: CALL_CATCH, replace: CALL_CATCH.replace("if (!brokenAnswer(err) ||", 'if (!brokenAnswer(err) || method === "GET" ||') }],
    },
    {
      id: "accepted-reported-committed",
      mistake: "reports a move committed as soon as Interviewly answers 202, on its word that it accepted the call",
      patches: [{ file: "src/push.ts", find: '      move.status = "pending";', replace: '      move.status = "committed";' }],
    },
    {
      id: "desk-zone-used",
      mistake: "reads new_start in the coordinator's desk_tz instead of the interview's own time_zone",
      patches: [
        {
          file: "src/sheet.ts",
          find: "return { ref: cells[ref].trim(), typedId: cells[id], newStart: cells[start].trim() };",
          replace: 'return { ref: cells[ref].trim(), typedId: cells[id], newStart: cells[start].trim(), deskTz: cells[header.indexOf("desk_tz")].trim() };',
        },
        { file: "src/push.ts", find: "const zone = String((read.body as Record<string, unknown>).time_zone);", replace: "const zone = (line as unknown as { deskTz: string }).deskTz;" },
      ],
    },
    {
      id: "offset-of-old-start",
      mistake: "converts the new local start with the UTC offset in force at the interview's old start, not at its new date, so a move across the clock change lands an hour off",
      patches: [
        { file: "src/local-time.ts", find: "function offsetMs(", replace: "export function offsetMs(" },
        { file: "src/push.ts", find: 'import { localToUnixS } from "./local-time.ts";', replace: 'import { localToUnixS, offsetMs } from "./local-time.ts";' },
        {
          file: "src/push.ts",
          find: "const startsAt = localToUnixS(line.newStart, zone);",
          replace:
            'const wallNew = localToUnixS(line.newStart, "UTC");\n    const startsAt = wallNew === null ? null : wallNew - offsetMs(Number((read.body as Record<string, unknown>).starts_at) * 1000, zone) / 1000;',
        },
      ],
    },
    {
      id: "interview-id-as-typed",
      mistake: "sends the interview id as the desk typed it (IVW_000001), which Interviewly does not know, so the move is rejected",
      patches: [{ file: "src/sheet.ts", find: "typed.trim().toLowerCase()", replace: "typed.trim()" }],
    },
    {
      id: "start-read-strictly",
      mistake: "takes new_start only in the strict `HH:MM` form and rejects the line the desk's spreadsheet exported as `8:30`, a move Interviewly could make",
      patches: [{ file: "src/local-time.ts", find: "(\\d{1,2}):(\\d{2})$/", replace: "(\\d{2}):(\\d{2})$/" }],
    },
    {
      id: "idempotency-key-per-attempt",
      mistake: "gives a retried reschedule a new Idempotency-Key, so a move Interviewly queued before its answer was lost is queued again",
      patches: [{ file: "src/push.ts", find: RETRY_KEY, replace: RETRY_KEY.replace("`reschedule-", "`reschedule-retry-$" + "{attempt}-") }],
    },
    {
      id: "turned-down-move-left-pending",
      mistake:
        "waits only for the confirming `interview.updated`: a move Interviewly accepted and then turned down (`interview.reschedule_failed`) stays pending run after run instead of being reported rejected",
      patches: [{ file: "src/push.ts", find: SETTLE, replace: '      if (c && !c.refused) Object.assign(m, { status: "committed", confirmation_event_id: c.event_id });' }],
    },
    {
      id: "any-event-with-request-id-confirms",
      mistake: "takes any event carrying the move's request_id as its confirmation, so a move Interviewly turned down is reported committed",
      patches: [{ file: "src/push.ts", find: SETTLE, replace: '      if (c) Object.assign(m, { status: "committed", confirmation_event_id: c.event_id });' }],
    },
    {
      id: "turned-down-move-resent",
      mistake: "sends a move Interviewly turned down again on the next run, under a new Idempotency-Key, instead of leaving it to the desk",
      patches: [
        { file: "src/push.ts", find: '    if (known && (known.request_id !== null || known.status === "rejected")) continue;', replace: '    if (known && known.status !== "rejected") continue;' },
        { file: "src/push.ts", find: FIRST_KEY, replace: FIRST_KEY.replace("`reschedule-$" + "{line.ref}`", "`reschedule-$" + "{line.ref}$" + '{known ? "-again" : ""}`') },
      ],
    },
    {
      id: "forged-delivery-accepted",
      mistake: "takes every delivery at its word: the signature and timestamp are never checked",
      patches: [{ file: "src/serve.ts", find: "    if (problem) return reply(res, 401, { error: problem });\n", replace: "" }],
    },
    {
      id: "ack-without-event-id",
      mistake: "answers a delivery 200 without echoing its id in `ack`, which is how Interviewly counts an acknowledgement",
      patches: [{ file: "src/serve.ts", find: "reply(res, 200, { ack: event.id });", replace: "reply(res, 200, { ok: true });" }],
    },
    {
      id: "waits-without-traffic",
      mistake: "sits and waits for confirmations without touching the API, so Interviewly's queue, which moves with the account's own traffic, never reaches the moves",
      patches: [
        {
          file: "src/push.ts",
          find: '    for (const m of left) await api.call("GET", `/v1/interviews/$' + '{encodeURIComponent(m.interview_id)}`, undefined, { "cache-control": "no-cache" });\n',
          replace: "",
        },
      ],
    },
    {
      id: "token-per-call",
      mistake: "asks for a new access token before every call instead of reusing the one it has",
      patches: [{ file: "src/interviewly.ts", find: "    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;\n", replace: "" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no 429 or 503 is answered in this scenario (gold's manifest records no retry_after_honored): the faults are a reschedule answer lost to a 502 after commit, a move turned down after its 202, two answers broken off mid-body, replayed deliveries and forged deliveries",
    "shared-no-wait":
      "gold's waits are the pause between polls for confirmations and the retry of one 502 (replayed under the same key); the ticket says the queue moves along with the account's own traffic and sets no pace for polling within the minute, so polling without pause is an approach the ticket allows, not a mistake",
  },
});
