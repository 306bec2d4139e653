import { defineMutants } from "../shared/mutant.ts";

export default defineMutants({
  mutants: [
    {
      id: "released-booking-still-taken",
      mistake: "believes the desk note that cancelled bookings disappear: every listed booking is taken, so time from a released booking never comes back on the board",
      patches: [{ file: "src/main.ts", find: '.filter((b) => b.status === "held" || b.status === "booked")', replace: "" }],
    },
    {
      id: "lapsed-offer-still-taken",
      mistake:
        "frees only the time of a released booking and keeps every other listed booking as taken, so an offer that lapsed unanswered (`expired`: it books nobody, the time is free again) still keeps the worker off the board",
      patches: [{ file: "src/main.ts", find: 'b.status === "held" || b.status === "booked"', replace: 'b.status !== "released"' }],
    },
    {
      id: "held-offer-treated-free",
      mistake: "only bookings at `booked` take time: an offer the worker has not answered (`held`) is treated as free, so the same hour can be offered twice",
      patches: [{ file: "src/main.ts", find: 'b.status === "held" || b.status === "booked"', replace: 'b.status === "booked"' }],
    },
    {
      id: "open-block-one-hour",
      mistake: "believes the desk note that a block with no end is a one-hour block, so a worker blocked until further notice is back on the board an hour later",
      patches: [
        {
          file: "src/main.ts",
          find: "d === null || d === undefined ? Number.POSITIVE_INFINITY : start + Number(d) * MINUTE",
          replace: "start + Number(d ?? 60) * MINUTE",
        },
      ],
    },
    {
      id: "onboarding-not-checked",
      mistake: "puts every worker with a calendar on the board, including those whose onboarding is not finished (`signed_up`, `docs_pending`, `screening`)",
      patches: [{ file: "src/main.ts", find: 'if (w.onboarding_status !== "active") continue;', replace: "" }],
    },
    {
      id: "fixed-central-offset",
      mistake: "believes the desk note that everything is Central time and uses a fixed UTC-6: on a morning still on daylight time the board is cut an hour late and stamped -06:00",
      patches: [{ file: "src/local-time.ts", find: "return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);", replace: "return -360;" }],
    },
    {
      id: "one-page-per-calendar",
      mistake: "asks for the largest page CrewCall serves (200) and takes the first page of each list as the whole calendar, so availability posted after the 200th post never reaches the board",
      patches: [{ file: "src/crewcall.ts", find: "      offset += records.length;\n      if (records.length < PAGE_SIZE) break;", replace: "      offset += records.length;\n      break;" }],
    },
    {
      id: "single-crawl-trusted",
      mistake:
        "reads each list once by offset and keeps what it met, although a post met twice shows that new posts pushed others past the crawl, so availability posted while the job reads never reaches the board",
      patches: [{ file: "src/crewcall.ts", find: "    if (twice > 0)\n", replace: "    if (twice < 0)\n" }],
    },
    {
      id: "touching-posts-kept-apart",
      mistake: "merges availability posts only when they overlap, so two posts that meet (08:00-10:00 and 10:00-11:00) stay two stretches, and a part shorter than an hour is dropped",
      patches: [
        {
          file: "src/intervals.ts",
          find: "    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);",
          replace: "    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);",
        },
      ],
    },
    {
      id: "short-gaps-kept",
      mistake: "keeps stretches shorter than an hour on the board",
      patches: [{ file: "src/main.ts", find: "if (minutes < SHORTEST_MIN) continue;", replace: "" }],
    },
  ],
  equivalent: {
    "shared-retry-after-ignored":
      "no 429 or 503 is ever answered here: the only faults are a 500 on the first page of blocks, availability moving under the crawl and offers lapsing, and the job's dozen or so list reads stay far below CrewCall's 240-request limit",
    "shared-no-wait":
      "the only error is two 500s on the first page of blocks (the other faults move availability under the crawl and lapse old offers, which no wait changes): the third ask is served whatever the pause, and gold's 100-200 ms backoff is already within what the hot-loop check allows, so dropping it changes nothing the vendor or a check can see",
  },
});
