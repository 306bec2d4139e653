import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "rota-read-over-rest",
      mistake: "reads the shifts from the REST list /api/v3/shifts, which Rosterly bills, instead of TimeClockService's ListShifts",
      patches: [
        {
          file: "src/rosterly.ts",
          find: [
            '        const xml = await this.soap("ListShifts", { limit: PAGE, offset });',
            "        const items = [...xml.matchAll(/<shift>([\\s\\S]*?)<\\/shift>/g)].map((m) => fields(m[1]));",
            "        for (const s of items) byId.set(s.id, s);",
            "        total = Number(/<total>(\\d+)<\\/total>/.exec(xml)?.[1] ?? 0);",
            "        const next = /<next_offset>(\\d+)<\\/next_offset>/.exec(xml);",
            "        if (!next || !items.length) break;",
            "        offset = Number(next[1]);",
          ].join("\n"),
          replace: [
            '        const res = await this.request("/api/v3/shifts?limit=" + PAGE + "&offset=" + offset, { method: "GET" });',
            "        const page = JSON.parse(res.text) as { items: Record<string, unknown>[]; total: number; next_offset: number | null };",
            "        for (const s of page.items) byId.set(String(s.id), Object.fromEntries(Object.entries(s).map(([k, v]) => [k, String(v)])));",
            "        total = page.total;",
            "        if (page.next_offset === null || page.next_offset === undefined || !page.items.length) break;",
            "        offset = page.next_offset;",
          ].join("\n"),
        },
      ],
    },
    {
      id: "agency-staff-paid",
      mistake: "puts agency staff's shifts on the bureau's timesheet: employment_type is never looked at",
      patches: [{ file: "src/main.ts", find: "timesheet((await rosterly.shifts()).filter((s) => !agency.has(s.worker_id)))", replace: "timesheet(await rosterly.shifts())" }],
    },
    {
      id: "staff-files-crawled-once",
      mistake: "reads the staff files with one offset crawl while HR edits them, so files that moved are stepped over and some agency staff are paid",
      patches: [{ file: "src/rosterly.ts", find: "if (byId.size >= total) return [...byId.values()];", replace: "return [...byId.values()];" }],
    },
    {
      id: "rota-crawled-once",
      mistake: "checks the staff files against their total but reads ListShifts with one offset crawl while managers are still closing the rota, so the shifts that moved to the head are missed",
      patches: [{ file: "src/rosterly.ts", find: "if (total <= byId.size) return [...byId.values()];", replace: "return [...byId.values()];" }],
    },
    {
      id: "no-midnight-split",
      mistake: "books every minute of a shift to the day it started, so the hours after the venue's midnight are paid on the wrong day",
      patches: [{ file: "src/timesheet.ts", find: "const first = Math.min(total, Math.round((midnight - start) / 60_000));", replace: "const first = total + 0 * (midnight - start);" }],
    },
    {
      id: "deleted-shifts-paid",
      mistake: "pays every completed shift ListShifts returns, the ones deleted from the rota (still listed with deleted true) included",
      patches: [{ file: "src/timesheet.ts", find: 'if (s.status !== "completed" || s.deleted === "true") continue;', replace: 'if (s.status !== "completed") continue;' }],
    },
    {
      id: "breaks-deducted",
      mistake: "takes the unpaid break off each shift, which the bureau settles itself",
      patches: [{ file: "src/timesheet.ts", find: "const total = Number(s.duration_minutes);", replace: "const total = Number(s.duration_minutes) - Number(s.unpaid_break_minutes || 0);" }],
    },
    {
      id: "minutes-outside-week-kept",
      mistake: "keeps the minutes a shift worked outside the pay week (the Sunday night past the week's end, the Monday start of a shift from the week before)",
      patches: [{ file: "src/timesheet.ts", find: "if (!week.has(date) || minutes <= 0) return;", replace: "if (minutes <= 0) return;" }],
    },
    {
      id: "note-key-per-run",
      mistake: "makes a fresh Idempotency-Key for each note on every run, so a rerun writes every long-day note again",
      patches: [{ file: "src/rosterly.ts", find: '.digest("hex");', replace: '.update(crypto.randomUUID()).digest("hex");' }],
    },
    {
      id: "long-day-at-480",
      mistake: "notes days of exactly 480 minutes too: 'more than 480' read as 480 or more",
      patches: [{ file: "src/main.ts", find: "x.minutes > LONG_DAY_MINUTES", replace: "x.minutes >= LONG_DAY_MINUTES" }],
    },
    {
      id: "cut-answer-taken-as-fatal",
      mistake:
        "retries 5xx answers, a lost connection and an ended session, and files notes with fixed Idempotency-Keys, but takes an answer whose body breaks off after its status arrived (a note already filed) as fatal, so the run stops part-way through the notes",
      patches: [{ file: "src/rosterly.ts", find: "if (attempt >= 4) throw err;", replace: "if (attempt >= 4 || res) throw err;" }],
    },
    {
      id: "previous-blind-solver",
      mistake:
        "the connector of the last blind attempt as its approach reads: the staff files re-read until they match their total, notes with fixed keys through a 504 and a rerun, but ListShifts crawled once and a body that breaks off after its status taken as fatal",
      patches: [
        { file: "src/rosterly.ts", find: "if (total <= byId.size) return [...byId.values()];", replace: "return [...byId.values()];" },
        { file: "src/rosterly.ts", find: "if (attempt >= 4) throw err;", replace: "if (attempt >= 4 || res) throw err;" },
      ],
    },
    {
      id: "session-end-fatal",
      mistake: "treats the 401 of a session Rosterly ended as fatal instead of signing in again",
      patches: [{ file: "src/rosterly.ts", find: "if (res.status === 401 && attempt < 3) {", replace: "if (res.status === 401 && attempt < 0) {" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no 429 or 503 is answered in this scenario (gold's manifest records no retry_after_honored): the faults are a 500 page, a 401 session end, a 504 after commit, page drift and one answer cut off on the wire",
    "shared-no-wait":
      "the 500 page fails twice, the 504 once and one answer is cut off once, so the retries are served whatever the pause; two or three asks at once are not a hot loop, and a note's retry keeps its Idempotency-Key",
  },
});
